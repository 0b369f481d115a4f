import { Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface.js';
import { Public } from '@wp/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthedProject, BasicAuthGuard } from '../projects/basic-auth.guard.js';
import { OtelService } from './otel.service.js';

/**
 * The OTLP `ExportTraceServiceRequest` (opentelemetry-proto `collector/trace/v1`) as far as the
 * document describes it: `resourceSpans` of scope spans; in protobuf the same message, binary.
 * The full OTLP JSON mapping is the OTLP specification's, not repeated here. Only the message
 * and `resourceSpans` are typed: `normalizeTraceRequest` reads a nested value of another shape
 * as empty (it carries no spans) rather than refusing the export, so the nested keywords
 * describe without constraining (`properties` and `items` apply only to objects and arrays).
 */
const OTLP_TRACES_REQUEST = {
  type: 'object',
  nullable: true,
  description:
    'OTLP ExportTraceServiceRequest (JSON mapping, or the protobuf message); no body, `null` or no ' +
    '`resourceSpans` exports nothing.',
  properties: {
    resourceSpans: {
      type: 'array',
      nullable: true,
      description:
        'Resource spans; an entry or field of another shape than the OTLP JSON mapping is read ' +
        'as empty and contributes no spans.',
      items: {
        description: 'ResourceSpans: the resource and its scope spans.',
        properties: {
          resource: { description: 'Resource: `{attributes}`.' },
          scopeSpans: {
            description: 'ScopeSpans: `[{scope, spans}]`.',
            items: { properties: { scope: {}, spans: {} } },
          },
        },
      },
    },
  },
} as SchemaObject;

/**
 * OTLP/HTTP trace export (`fern/apis/server/definition/opentelemetry.yml`, OTLP specification):
 * `application/json` or `application/x-protobuf`, optionally gzip-compressed. Answers in the
 * request's encoding: `{}` / an empty protobuf message on success, `partialSuccess` when spans
 * were rejected. HTTP Basic with a project key pair, as for ingestion.
 */
@Controller('api/public/otel/v1')
@Public()
@UseGuards(BasicAuthGuard)
export class OtelController {
  constructor(private readonly otel: OtelService) {}

  /** OTLP/HTTP trace export (JSON or protobuf, optionally gzip/deflate): 200 OTLP answer. */
  @Post('traces')
  @HttpCode(200)
  @ApiConsumes('application/json', 'application/x-protobuf')
  @ApiBody({ schema: OTLP_TRACES_REQUEST, required: false })
  @ApiOperation({ summary: 'Export traces over OTLP/HTTP' })
  async traces(
    @AuthedProject() projectId: number,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const protobuf = isProtobuf(request.headers['content-type']);
    const result = await this.otel.export(projectId, request.body, protobuf);
    if (protobuf) {
      await reply
        .status(200)
        .header('content-type', 'application/x-protobuf')
        .send(Buffer.from(result.protobuf));
      return;
    }
    await reply.status(200).header('content-type', 'application/json').send(result.json);
  }
}

function isProtobuf(contentType: string | undefined): boolean {
  return /^application\/(x-)?protobuf\b/i.test(contentType ?? '');
}

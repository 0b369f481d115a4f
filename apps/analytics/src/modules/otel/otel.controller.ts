import { Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { Public } from '@wp/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthedProject, BasicAuthGuard } from '../projects/basic-auth.guard.js';
import { OtelService } from './otel.service.js';

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

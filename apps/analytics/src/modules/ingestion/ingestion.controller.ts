import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { Public } from '@wp/http';
import type { FastifyRequest } from 'fastify';
import { AuthedProject, BasicAuthGuard } from '../projects/basic-auth.guard.js';
import { INGESTION_REQUEST_SCHEMA } from './ingestion-request.openapi.js';
import { IngestionService, type IngestionResult } from './ingestion.service.js';

/**
 * Langfuse ingestion (`fern/apis/server/definition/ingestion.yml`). Not in the contract: it is
 * how analytics gets data. HTTP Basic with a project key pair; `Api-Key` optional (@Public skips
 * only the bearer token; the Api-Key guard validates a key when one is sent).
 */
@Controller('api/public')
@Public()
@UseGuards(BasicAuthGuard)
export class IngestionController {
  constructor(private readonly ingestion: IngestionService) {}

  /** `POST /api/public/ingestion` → 207 `{successes, errors}`, 400/401/413 in Langfuse's shape. */
  @Post('ingestion')
  @HttpCode(207)
  @ApiBody({ schema: INGESTION_REQUEST_SCHEMA })
  @ApiOperation({ summary: 'Ingest a batch of traces, observations and scores' })
  ingest(
    @AuthedProject() projectId: number,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ): Promise<IngestionResult> {
    return this.ingestion.ingest(projectId, body, bodySize(request, body));
  }
}

/** The body's size on the wire: Content-Length, else its JSON length (chunked uploads). */
export function bodySize(request: FastifyRequest, body: unknown): number {
  const header = Number(request.headers['content-length']);
  if (Number.isFinite(header) && header > 0) return header;
  return body === undefined ? 0 : Buffer.byteLength(JSON.stringify(body));
}

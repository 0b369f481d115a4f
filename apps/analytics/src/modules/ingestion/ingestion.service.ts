import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ANALYTICS_CONFIG, type AnalyticsConfig } from '../../config/analytics.config.js';
import { LangfuseApiError } from '../common/langfuse-errors.js';
import { langfuseIssues } from '../common/query.js';
import type { Change, ParsedEvent } from './changes.js';
import { IngestionRequestSchema, parseIngestionEvent } from './ingestion-events.schema.js';
import { IngestionWriter } from './ingestion-writer.js';

/** `IngestionResponse` of ingestion.yml. */
export interface IngestionResult {
  successes: { id: string; status: number }[];
  errors: { id: string; status: number; message?: string; error?: unknown }[];
}

/**
 * `POST /api/public/ingestion` (ingestion.yml `batch`; docs/analytics.md § Ingestion semantics):
 * validates each event on its own (a bad event is a 400 entry in `errors`, the others are written),
 * writes the valid ones through the group-committing writer and reports every event: 201 in
 * `successes`, or an error entry. A storage failure reports 500 for the affected events (the
 * SDKs retry them; event ids make the retry safe).
 */
@Injectable()
export class IngestionService {
  private readonly logger = new Logger('Ingestion');

  constructor(
    private readonly writer: IngestionWriter,
    @Inject(ANALYTICS_CONFIG) private readonly config: AnalyticsConfig,
  ) {}

  /**
   * @param bodyBytes size of the request body; above `ANALYTICS_INGESTION_MAX_BYTES` → 413
   * @throws LangfuseApiError 400 when the body is not `{batch: [...]}`, 413 when too large
   */
  async ingest(projectId: number, body: unknown, bodyBytes: number): Promise<IngestionResult> {
    if (bodyBytes > this.config.ANALYTICS_INGESTION_MAX_BYTES) {
      throw LangfuseApiError.tooLarge(
        `Batch of ${bodyBytes} bytes exceeds the limit of ${this.config.ANALYTICS_INGESTION_MAX_BYTES} bytes; send smaller batches.`,
      );
    }
    const request = IngestionRequestSchema.safeParse(body);
    if (!request.success) {
      throw LangfuseApiError.invalid(langfuseIssues(request.error), 'invalid_body');
    }
    const result: IngestionResult = { successes: [], errors: [] };
    const accepted: { id: string; change: Change | null }[] = [];
    for (const raw of request.data.batch) {
      const parsed = parseIngestionEvent(raw);
      if (!parsed.ok) {
        result.errors.push({
          id: parsed.id,
          status: 400,
          message: 'Invalid request data',
          error: parsed.message,
        });
        continue;
      }
      accepted.push({ id: parsed.event.eventId, change: this.toChange(projectId, parsed.event) });
    }
    const changes = accepted.flatMap((a) => (a.change ? [a.change] : []));
    try {
      await this.writer.submit(changes);
      for (const a of accepted) result.successes.push({ id: a.id, status: 201 });
    } catch {
      for (const a of accepted) {
        result.errors.push({ id: a.id, status: 500, error: 'Internal Server Error' });
      }
    }
    return result;
  }

  private toChange(projectId: number, event: ParsedEvent): Change | null {
    switch (event.kind) {
      case 'trace':
        return {
          kind: 'trace',
          projectId,
          eventId: event.eventId,
          timestamp: event.timestamp,
          patch: { ...event.patch, id: event.patch.id ?? randomUUID() },
        };
      case 'score':
        return {
          kind: 'score',
          projectId,
          eventId: event.eventId,
          timestamp: event.timestamp,
          patch: { ...event.patch, id: event.patch.id ?? randomUUID() },
        };
      case 'observation':
        return { ...event, projectId };
      case 'sdk-log':
        this.logger.debug({ log: event.log, projectId }, 'SDK log event');
        return null;
    }
  }
}

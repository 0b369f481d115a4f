import { Injectable } from '@nestjs/common';
import { LangfuseApiError } from '../common/langfuse-errors.js';
import { AnalyticsStore } from '../storage/analytics-store.js';
import type { TraceDetail, TraceSummary } from '../storage/records.js';
import type { ListTracesQuery } from './traces.query.js';

/** Page metadata (utils/pagination.yml MetaResponse). */
export interface MetaResponse {
  page: number;
  limit: number;
  totalItems: number;
  totalPages: number;
}

/** Reads of traces, always scoped to the authenticated project (docs/api.md § Analytics). */
@Injectable()
export class TracesService {
  constructor(private readonly store: AnalyticsStore) {}

  async list(
    projectId: number,
    query: ListTracesQuery,
  ): Promise<{ items: TraceSummary[]; meta: MetaResponse }> {
    const { items, totalItems } = await this.store.listTraces({
      projectId,
      page: query.page,
      limit: query.limit,
      userId: query.userId,
      name: query.name,
      sessionId: query.sessionId,
      version: query.version,
      release: query.release,
      environments: query.environment,
      fromTimestamp: query.fromTimestamp,
      toTimestamp: query.toTimestamp,
      tags: query.tags,
      orderBy: query.orderBy ?? { field: 'timestamp', direction: 'desc' },
    });
    return {
      items,
      meta: {
        page: query.page,
        limit: query.limit,
        totalItems,
        totalPages: Math.ceil(totalItems / query.limit),
      },
    };
  }

  /** @throws LangfuseApiError 404 for an unknown trace or another project's. */
  async get(projectId: number, traceId: string): Promise<TraceDetail> {
    const detail = await this.store.getTrace(projectId, traceId);
    if (!detail) {
      throw LangfuseApiError.notFound(`Trace ${traceId} not found within authorized project`);
    }
    return detail;
  }
}

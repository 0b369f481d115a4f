import { Injectable } from '@nestjs/common';
import { AnalyticsStore } from '../storage/analytics-store.js';
import type { DailyMetricsDay } from '../storage/records.js';
import type { MetaResponse } from '../traces/traces.service.js';
import type { DailyMetricsQuery } from './metrics.query.js';

/**
 * Daily metrics (docs/api.md § Analytics; Langfuse metrics.yml DailyMetrics): one entry per UTC day
 * with data in `[fromTimestamp, toTimestamp)`, newest first, paginated by day. Traces count on the
 * day of their timestamp, observations on the day they started; `traceName`, `userId` and `tags`
 * (all required) filter by the observation's trace.
 */
@Injectable()
export class MetricsService {
  constructor(private readonly store: AnalyticsStore) {}

  async daily(
    projectId: number,
    query: DailyMetricsQuery,
  ): Promise<{ data: DailyMetricsDay[]; meta: MetaResponse }> {
    const days = await this.store.dailyMetrics({
      projectId,
      fromTimestamp: query.fromTimestamp,
      toTimestamp: query.toTimestamp,
      traceName: query.traceName,
      userId: query.userId,
      tags: query.tags,
    });
    const offset = (query.page - 1) * query.limit;
    return {
      data: days.slice(offset, offset + query.limit),
      meta: {
        page: query.page,
        limit: query.limit,
        totalItems: days.length,
        totalPages: Math.ceil(days.length / query.limit),
      },
    };
  }
}

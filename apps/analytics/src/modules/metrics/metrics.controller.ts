import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Public } from '@wp/http';
import { LangfuseQuery } from '../common/query.js';
import { AuthedProject, BasicAuthGuard } from '../projects/basic-auth.guard.js';
import type { DailyMetricsDay } from '../storage/records.js';
import type { MetaResponse } from '../traces/traces.service.js';
import { DailyMetricsQuery } from './metrics.query.js';
import { MetricsService } from './metrics.service.js';

/**
 * docs/api.md § Analytics: `GET /api/public/metrics/daily` → `{data: DailyMetricsDetails[], meta}`
 * exactly as Langfuse's metrics.yml (no other keys). HTTP Basic with a project key pair.
 */
@Controller('api/public/metrics')
@Public()
@UseGuards(BasicAuthGuard)
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /** Daily usage of the project (traces, observations, cost per model): `{data, meta}`. */
  @Get('daily')
  @ApiOperation({ summary: "Get the project's daily usage" })
  daily(
    @AuthedProject() projectId: number,
    @LangfuseQuery(DailyMetricsQuery) query: DailyMetricsQuery,
  ): Promise<{ data: DailyMetricsDay[]; meta: MetaResponse }> {
    return this.metrics.daily(projectId, query);
  }
}

import { Readable } from 'node:stream';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@wp/security';
import type { FastifyReply } from 'fastify';
import { ActivityService, type ActivityLogEntry, type MetricPoint } from './activity.service.js';
import {
  ActivityExportQueryDto,
  ActivityLogsQueryDto,
  ActivityMetricsQueryDto,
} from './dto/activity-query.dto.js';
import { EXPORT_CONTENT_TYPES, exportChunks } from './export-format.js';
import type { PageMeta } from '@wp/http';

/**
 * Sentinel Pass agent activity on {auth_url} (header set B, user tokens;
 * docs/api.md § Sentinel Passes): only members of the pass's project may read; anyone else gets
 * 404.
 */
@Controller('oauth/agent/activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  /** `GET /oauth/agent/activity/logs`: 200 `{data, meta}` page; 400 invalid query; 404. */
  @Get('logs')
  @ApiOperation({ summary: "List a Sentinel Pass agent's activity" })
  async logs(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ActivityLogsQueryDto,
  ): Promise<{ data: ActivityLogEntry[]; meta: PageMeta }> {
    await this.activity.readablePass(principal, query.agent_user_id);
    return this.activity.logs(query);
  }

  /** `GET /oauth/agent/activity/export`: 200 streamed attachment (json, csv, jsonl). */
  @Get('export')
  @ApiOperation({ summary: "Export a Sentinel Pass agent's activity" })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ActivityExportQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const pass = await this.activity.readablePass(principal, query.agent_user_id);
    const format = query.format ?? 'json';
    const stream = Readable.from(exportChunks(this.activity.exportEntries(query), format));
    await reply
      .status(200)
      .header('content-type', EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="agent-activity-${pass.id}.${format}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }

  /** `GET /oauth/agent/activity/metrics`: 200 `{data: points, meta.period}`; 400; 404. */
  @Get('metrics')
  @ApiOperation({ summary: "Get a Sentinel Pass agent's activity metrics" })
  async metrics(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ActivityMetricsQueryDto,
  ): Promise<{
    data: MetricPoint[];
    meta: { period: { start_date: string; end_date: string; group_by: string } };
  }> {
    await this.activity.readablePass(principal, query.agent_user_id);
    return this.activity.metrics(query);
  }
}

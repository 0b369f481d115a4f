import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { Public } from '@wp/http';
import { LangfuseQuery } from '../common/query.js';
import { AuthedProject, BasicAuthGuard } from '../projects/basic-auth.guard.js';
import {
  toTraceWithDetails,
  toTraceWithFullDetails,
  type TraceWithDetails,
  type TraceWithFullDetails,
} from './trace.serializer.js';
import { ListTracesQuery } from './traces.query.js';
import { TracesService, type MetaResponse } from './traces.service.js';

/**
 * docs/api.md § Analytics: `GET /api/public/traces` and `GET /api/public/traces/{traceId}`, shaped
 * as Langfuse's `trace.yml` (Traces, TraceWithFullDetails). HTTP Basic with a project key pair
 * (docs/api.md § Authentication 7); `Api-Key` optional but validated when sent.
 */
@Controller('api/public/traces')
@Public()
@UseGuards(BasicAuthGuard)
export class TracesController {
  constructor(private readonly traces: TracesService) {}

  /**
   * `{data: TraceWithDetails[], meta: {page, limit, totalItems, totalPages}}`; 400 on a bad query.
   */
  @Get()
  @ApiOperation({ summary: "List the project's traces" })
  async list(
    @AuthedProject() projectId: number,
    @LangfuseQuery(ListTracesQuery) query: ListTracesQuery,
  ): Promise<{ data: TraceWithDetails[]; meta: MetaResponse }> {
    const { items, meta } = await this.traces.list(projectId, query);
    return { data: items.map(toTraceWithDetails), meta };
  }

  /** TraceWithFullDetails; 404 `{message, error: "LangfuseNotFoundError"}` when unknown here. */
  @Get(':traceId')
  @ApiOperation({ summary: 'Get a trace with its observations and scores' })
  async get(
    @AuthedProject() projectId: number,
    @Param('traceId') traceId: string,
  ): Promise<TraceWithFullDetails> {
    return toTraceWithFullDetails(await this.traces.get(projectId, traceId));
  }
}

import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AnalyticsStore, type IngestionUnitOfWork } from '../analytics-store.js';
import type {
  DailyMetricsDay,
  DailyMetricsQuery,
  ModelPriceRecord,
  TraceDetail,
  TraceQuery,
  TraceSummary,
} from '../records.js';
import type { RowOf } from '../schema/columns.js';
import type { MODEL_PRICE_TABLE } from '../schema/model-price.table.js';
import { PostgresUnitOfWork } from './ingestion-unit-of-work.js';
import { dailyMetrics } from './metrics-reads.js';
import { MODEL_PRICE_ROWS } from './row-mapping.js';
import { getTrace, listTraces } from './trace-reads.js';

/**
 * PostgreSQL implementation of {@link AnalyticsStore} (docs/analytics.md § Storage and the daily
 * rollup). This folder is the only code of the analytics service that queries its trace tables,
 * one file per job: trace reads (`trace-reads.ts`), daily metrics (`metrics-reads.ts`), the
 * ingestion unit of work (`ingestion-unit-of-work.ts`) with its rollup statement
 * (`daily-rollup.sql.ts`), and rows ↔ records (`row-mapping.ts`). This class binds them and
 * keeps the housekeeping (prices, dedupe window, purge).
 */
@Injectable()
export class PostgresAnalyticsStore extends AnalyticsStore {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  write<T>(work: (uow: IngestionUnitOfWork) => Promise<T>): Promise<T> {
    return this.txHost.withTransaction(() => work(new PostgresUnitOfWork(this.txHost.tx)));
  }

  listTraces(query: TraceQuery): Promise<{ items: TraceSummary[]; totalItems: number }> {
    return listTraces(this.dataSource, query);
  }

  getTrace(projectId: number, traceId: string): Promise<TraceDetail | null> {
    return getTrace(this.dataSource, projectId, traceId);
  }

  dailyMetrics(query: DailyMetricsQuery): Promise<DailyMetricsDay[]> {
    return dailyMetrics(this.dataSource, query);
  }

  async listModelPrices(): Promise<ModelPriceRecord[]> {
    const rows: RowOf<typeof MODEL_PRICE_TABLE>[] = await this.dataSource.query(
      `SELECT ${MODEL_PRICE_ROWS.select()} FROM model_price`,
    );
    return rows.map((row) => MODEL_PRICE_ROWS.toRecord(row));
  }

  async forgetEventsOlderThan(hours: number): Promise<number> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM ingestion_event WHERE seen_at < now() - make_interval(hours => $1)`,
      [hours],
    );
    return count;
  }

  async purgeProjectData(projectId: number, limit: number): Promise<number> {
    let total = 0;
    for (const table of PURGE_TABLES) {
      const rows: { n: number }[] = await this.dataSource.query(
        `WITH gone AS (
           DELETE FROM ${table} WHERE ctid IN (
             SELECT ctid FROM ${table} WHERE project_id = $1 LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [projectId, limit],
      );
      total += rows[0].n;
      if (rows[0].n >= limit) return total; // more next round
    }
    return total;
  }
}

const PURGE_TABLES = [
  'observation',
  'score',
  'trace',
  'daily_usage_rollup',
  'daily_trace_rollup',
  'ingestion_event',
  'model_price',
] as const;

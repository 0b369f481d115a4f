import { column, table } from './columns.js';
import { entitySchemaOf } from './entity-schema.js';

/**
 * The keys both rollups share: project, UTC day and the daily metrics filters (trace name, user
 * id, tag set); `''` stands for null.
 */
const ROLLUP_KEYS = {
  projectId: column.integer().primary(),
  day: column.date().primary(),
  traceName: column.text().primary(),
  userId: column.text().primary(),
  tags: column.textArray().primary(),
};

/**
 * Traces per UTC day (by trace timestamp) and per combination of the daily metrics filters.
 * Maintained by deltas on ingest (`postgres/daily-rollup.sql.ts`).
 */
export const DAILY_TRACE_ROLLUP_TABLE = table('daily_trace_rollup', {
  ...ROLLUP_KEYS,
  countTraces: column.bigint().default(0),
});

/**
 * Observation usage per UTC day (by observation start) and model, under the same filter keys as
 * the trace rollup (the filters apply to the observation's trace). `count_traces` counts the
 * distinct traces with an observation of that model that day.
 */
export const DAILY_USAGE_ROLLUP_TABLE = table('daily_usage_rollup', {
  ...ROLLUP_KEYS,
  model: column.text().primary(),
  countObservations: column.bigint().default(0),
  countTraces: column.bigint().default(0),
  inputUsage: column.bigint().default(0),
  outputUsage: column.bigint().default(0),
  totalUsage: column.bigint().default(0),
  totalCost: column.decimal().default(0),
});

export const DailyTraceRollupEntity = entitySchemaOf(DAILY_TRACE_ROLLUP_TABLE);
export const DailyUsageRollupEntity = entitySchemaOf(DAILY_USAGE_ROLLUP_TABLE);

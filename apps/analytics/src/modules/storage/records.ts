import type { RecordOf } from './schema/columns.js';
import type { MODEL_PRICE_TABLE } from './schema/model-price.table.js';
import type { OBSERVATION_TABLE } from './schema/observation.table.js';
import type { SCORE_TABLE } from './schema/score.table.js';
import type { TRACE_TABLE } from './schema/trace.table.js';

/**
 * The analytics domain records as the storage sees them, independent of the database behind it
 * (docs/analytics.md § Storage and the daily rollup). Field meanings follow Langfuse's data model
 * (`fern/apis/server/definition/commons.yml`: Trace, Observation, ScoreV1). The stored records
 * are described once, as tables in `schema/` (`columns.ts` says what is derived from them); their
 * types are re-exported here.
 */

export {
  OBSERVATION_LEVELS,
  OBSERVATION_TYPES,
  SCORE_DATA_TYPES,
  SCORE_SOURCES,
  type ObservationLevel,
  type ObservationType,
  type ScoreDataType,
  type ScoreSource,
} from './enums.js';

/** A trace (`schema/trace.table.ts`). */
export type TraceRecord = RecordOf<typeof TRACE_TABLE>;

/** An observation (`schema/observation.table.ts`). */
export type ObservationRecord = RecordOf<typeof OBSERVATION_TABLE>;

/** A score (`schema/score.table.ts`). */
export type ScoreRecord = RecordOf<typeof SCORE_TABLE>;

/** A model price row (`schema/model-price.table.ts`, docs/analytics.md § Cost). */
export type ModelPriceRecord = RecordOf<typeof MODEL_PRICE_TABLE>;

/** A trace of the list endpoint with its aggregates (`TraceWithDetails`). */
export interface TraceSummary {
  trace: TraceRecord;
  observationIds: string[];
  scoreIds: string[];
  /** Seconds between the earliest and the latest observation time; 0 without observations. */
  latency: number;
  /** USD, sum of the observations' costs; 0 without observations. */
  totalCost: number;
}

/** A trace with everything in it (`TraceWithFullDetails`). */
export interface TraceDetail {
  trace: TraceRecord;
  observations: ObservationRecord[];
  scores: ScoreRecord[];
  latency: number;
  totalCost: number;
}

export const TRACE_ORDER_FIELDS = [
  'id',
  'timestamp',
  'name',
  'userId',
  'release',
  'version',
  'public',
  'bookmarked',
  'sessionId',
] as const;
export type TraceOrderField = (typeof TRACE_ORDER_FIELDS)[number];

export interface TraceQuery {
  projectId: number;
  page: number;
  limit: number;
  userId?: string;
  name?: string;
  sessionId?: string;
  version?: string;
  release?: string;
  environments?: string[];
  /** Inclusive. */
  fromTimestamp?: Date;
  /** Exclusive. */
  toTimestamp?: Date;
  /** A trace must carry all of them. */
  tags?: string[];
  orderBy: { field: TraceOrderField; direction: 'asc' | 'desc' };
}

export interface DailyMetricsQuery {
  projectId: number;
  /** Inclusive. */
  fromTimestamp: Date;
  /** Exclusive. */
  toTimestamp: Date;
  traceName?: string;
  userId?: string;
  tags?: string[];
}

/** Usage of one model on one UTC day (`UsageByModel` of Langfuse's daily metrics). */
export interface ModelUsage {
  model: string | null;
  inputUsage: number;
  outputUsage: number;
  totalUsage: number;
  countTraces: number;
  countObservations: number;
  totalCost: number;
}

/** One UTC day with data (`DailyMetricsDetails`). */
export interface DailyMetricsDay {
  /** `YYYY-MM-DD` */
  date: string;
  countTraces: number;
  countObservations: number;
  totalCost: number;
  usage: ModelUsage[];
}

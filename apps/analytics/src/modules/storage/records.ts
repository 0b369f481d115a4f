/**
 * The analytics domain records as the storage sees them, independent of the database behind it
 * (docs/analytics.md § Storage). Field meanings follow Langfuse's data model (`fern/apis/server/
 * definition/commons.yml`: Trace, Observation, ScoreV1).
 */

/** Observation types of Langfuse (`ingestion.yml` ObservationType). */
export const OBSERVATION_TYPES = [
  'SPAN',
  'GENERATION',
  'EVENT',
  'AGENT',
  'TOOL',
  'CHAIN',
  'RETRIEVER',
  'EVALUATOR',
  'EMBEDDING',
  'GUARDRAIL',
] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export const OBSERVATION_LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'] as const;
export type ObservationLevel = (typeof OBSERVATION_LEVELS)[number];

export const SCORE_DATA_TYPES = [
  'NUMERIC',
  'BOOLEAN',
  'CATEGORICAL',
  'CORRECTION',
  'TEXT',
] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

export const SCORE_SOURCES = ['API', 'EVAL', 'ANNOTATION'] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];

export interface TraceRecord {
  projectId: number;
  id: string;
  timestamp: Date;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  release: string | null;
  version: string | null;
  input: unknown;
  output: unknown;
  metadata: unknown;
  /** Sorted, unique. */
  tags: string[];
  public: boolean;
  environment: string;
  /**
   * True while the trace exists only because an observation referenced it: its timestamp and
   * environment may still be set by the first trace-create (afterwards they are immutable).
   */
  implicit: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ObservationRecord {
  projectId: number;
  id: string;
  traceId: string;
  parentObservationId: string | null;
  type: ObservationType;
  name: string | null;
  startTime: Date;
  endTime: Date | null;
  completionStartTime: Date | null;
  model: string | null;
  modelParameters: unknown;
  input: unknown;
  output: unknown;
  metadata: unknown;
  level: ObservationLevel;
  statusMessage: string | null;
  version: string | null;
  environment: string;
  promptName: string | null;
  promptVersion: number | null;
  /** Usage units by usage type (`input`, `output`, `total`, `input_cached_tokens`, …). */
  usageDetails: Record<string, number>;
  /** Costs in USD by usage type; `total` is the observation's cost. */
  costDetails: Record<string, number>;
  /** What the client sent, kept so that a later update recomputes from the right inputs. */
  providedUsageDetails: Record<string, number>;
  providedCostDetails: Record<string, number>;
  totalCost: number | null;
  /** Price table entry that produced calculated costs, and its unit prices (USD per unit). */
  modelId: string | null;
  inputPrice: number | null;
  outputPrice: number | null;
  totalPrice: number | null;
  unit: string | null;
  /** True while the observation exists only through an update event (no create seen yet). */
  implicit: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface ScoreRecord {
  projectId: number;
  id: string;
  traceId: string | null;
  observationId: string | null;
  sessionId: string | null;
  datasetRunId: string | null;
  name: string;
  /** Numeric value (NUMERIC, BOOLEAN 0/1, CATEGORICAL mapped value or 0); null for TEXT. */
  value: number | null;
  stringValue: string | null;
  dataType: ScoreDataType;
  source: ScoreSource;
  comment: string | null;
  metadata: unknown;
  configId: string | null;
  queueId: string | null;
  environment: string;
  timestamp: Date;
  createdAt: Date;
  updatedAt: Date;
}

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

/** A model price row (docs/analytics.md § Cost). Prices are USD per unit of a usage type. */
export interface ModelPriceRecord {
  id: string;
  /** null: applies to every project. */
  projectId: number | null;
  modelName: string;
  /** Regular expression matched against the observation's model; `(?i)` prefix = ignore case. */
  matchPattern: string;
  /** Applies to observations starting at or after it; null: always. */
  startDate: Date | null;
  unit: string;
  prices: Record<string, number>;
}

import type {
  DailyMetricsDay,
  DailyMetricsQuery,
  ModelPriceRecord,
  ObservationRecord,
  ScoreRecord,
  TraceDetail,
  TraceQuery,
  TraceRecord,
  TraceSummary,
} from './records.js';

/** `(project, id)` of a stored entity. */
export interface EntityKey {
  projectId: number;
  id: string;
}

/**
 * One ingestion write, all or nothing (docs/analytics.md § Ingestion semantics). The ingestion
 * writer calls these in order: claim event ids (dedupe), lock the entities it will merge, load what
 * exists, save the merged records, then refresh the derived daily rollups of the traces it touched.
 */
export interface IngestionUnitOfWork {
  /**
   * Records ingestion event ids; returns those seen for the first time as `projectId:eventId`.
   * Ids already recorded (a retried batch) are left out: their events must not be applied again.
   */
  claimEvents(events: { projectId: number; eventId: string }[]): Promise<Set<string>>;
  /** Serialises concurrent writers (other requests, other replicas) on these entities. */
  lock(keys: { kind: 'trace' | 'observation' | 'score'; key: EntityKey }[]): Promise<void>;
  loadTraces(keys: EntityKey[]): Promise<TraceRecord[]>;
  loadObservations(keys: EntityKey[]): Promise<ObservationRecord[]>;
  loadScores(keys: EntityKey[]): Promise<ScoreRecord[]>;
  saveTraces(records: TraceRecord[]): Promise<void>;
  saveObservations(records: ObservationRecord[]): Promise<void>;
  saveScores(records: ScoreRecord[]): Promise<void>;
  /** Brings the daily metrics rollup in line with the current state of these traces. */
  refreshRollups(traces: EntityKey[]): Promise<void>;
}

/**
 * The storage of the analytics service, behind which PostgreSQL sits today and ClickHouse can sit
 * tomorrow (docs/analytics.md § The ClickHouse path). Every read is scoped to one
 * project: a project's key pair never reaches another project's rows.
 */
export abstract class AnalyticsStore {
  /** Runs `work` in one transaction; retried by the caller on a transient failure. */
  abstract write<T>(work: (uow: IngestionUnitOfWork) => Promise<T>): Promise<T>;

  /** A page of traces with their aggregates, and the number of traces matching the filters. */
  abstract listTraces(query: TraceQuery): Promise<{ items: TraceSummary[]; totalItems: number }>;

  /** One trace with its observations and scores, or null (unknown, or another project's). */
  abstract getTrace(projectId: number, traceId: string): Promise<TraceDetail | null>;

  /** UTC days with data in `[from, to)`, newest first, with per-model usage. */
  abstract dailyMetrics(query: DailyMetricsQuery): Promise<DailyMetricsDay[]>;

  /** Every model price row (global and project-specific). */
  abstract listModelPrices(): Promise<ModelPriceRecord[]>;

  /** Forgets ingestion event ids older than `hours` (the dedupe window). */
  abstract forgetEventsOlderThan(hours: number): Promise<number>;

  /** Deletes up to `limit` rows of a deleted project's data; returns how many went. */
  abstract purgeProjectData(projectId: number, limit: number): Promise<number>;
}

import type {
  ObservationLevel,
  ObservationType,
  ScoreDataType,
  ScoreSource,
} from '../storage/records.js';

/**
 * What one ingestion event asks to change. `undefined` means "not sent": an update keeps the
 * stored value (Langfuse's upsert-with-merge, docs/analytics.md § Ingestion semantics).
 */
export interface TracePatch {
  id: string;
  timestamp?: Date;
  name?: string;
  userId?: string;
  sessionId?: string;
  release?: string;
  version?: string;
  input?: unknown;
  output?: unknown;
  metadata?: unknown;
  tags?: string[];
  public?: boolean;
  environment?: string;
  /**
   * The change updates trace attributes without creating the trace (OTLP spans below the root):
   * timestamp and environment stay open for the root span's change.
   */
  keepImplicit?: boolean;
}

export interface ObservationPatch {
  id: string;
  traceId?: string;
  parentObservationId?: string;
  name?: string;
  startTime?: Date;
  endTime?: Date;
  completionStartTime?: Date;
  model?: string;
  modelParameters?: Record<string, unknown>;
  input?: unknown;
  output?: unknown;
  metadata?: unknown;
  level?: ObservationLevel;
  statusMessage?: string;
  version?: string;
  environment?: string;
  promptName?: string;
  promptVersion?: number;
  unit?: string;
  /** Usage units by type as the client gave them (Langfuse `provided_usage_details`). */
  usageDetails?: Record<string, number>;
  /** Costs by type as the client gave them (Langfuse `provided_cost_details`). */
  costDetails?: Record<string, number>;
}

export interface ScorePatch {
  id: string;
  name: string;
  traceId?: string;
  observationId?: string;
  sessionId?: string;
  datasetRunId?: string;
  environment?: string;
  comment?: string;
  metadata?: unknown;
  source: ScoreSource;
  queueId?: string;
  configId?: string;
  dataType: ScoreDataType;
  value: number | null;
  stringValue: string | null;
}

/** A validated ingestion event. `eventId` deduplicates (null: no dedupe, e.g. OTLP spans). */
export type ParsedEvent =
  | {
      kind: 'trace';
      eventId: string;
      timestamp: Date;
      patch: Omit<TracePatch, 'id'> & { id?: string };
    }
  | {
      kind: 'observation';
      eventId: string;
      timestamp: Date;
      op: 'create' | 'update';
      type: ObservationType;
      patch: ObservationPatch;
    }
  | {
      kind: 'score';
      eventId: string;
      timestamp: Date;
      patch: Omit<ScorePatch, 'id'> & { id?: string };
    }
  | { kind: 'sdk-log'; eventId: string; timestamp: Date; log: unknown };

/** A change ready to apply: ids resolved, project known. */
export type Change =
  | { kind: 'trace'; projectId: number; eventId: string | null; timestamp: Date; patch: TracePatch }
  | {
      kind: 'observation';
      projectId: number;
      eventId: string | null;
      timestamp: Date;
      op: 'create' | 'update';
      type: ObservationType;
      patch: ObservationPatch;
    }
  | {
      kind: 'score';
      projectId: number;
      eventId: string | null;
      timestamp: Date;
      patch: ScorePatch;
    };

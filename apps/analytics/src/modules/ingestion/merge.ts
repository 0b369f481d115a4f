import type {
  ObservationRecord,
  ObservationType,
  ScoreRecord,
  TraceRecord,
} from '../storage/records.js';
import type { ObservationPatch, ScorePatch, TracePatch } from './changes.js';

/**
 * Langfuse's upsert-with-merge (worker IngestionService `overwriteObject`), as pure functions:
 *
 * - a field sent replaces the stored one; a field not sent (or sent as null) keeps it;
 * - `metadata` objects merge deeply (other JSON values replace);
 * - trace `tags` are the sorted union of stored and sent tags;
 * - empty usage/cost maps do not replace stored ones;
 * - immutable once set by a create: trace `timestamp` and `environment`, observation
 *   `traceId`, `startTime` and `environment`, score `timestamp` and `traceId`. Records that exist
 *   only implicitly (a trace referenced by an observation, an observation known from an update)
 *   take them from the first create.
 */
export function mergeTrace(
  existing: TraceRecord | undefined,
  patch: TracePatch,
  eventTime: Date,
  now: Date,
  projectId: number,
): TraceRecord {
  const base: TraceRecord = existing ?? {
    projectId,
    id: patch.id,
    timestamp: patch.timestamp ?? eventTime,
    name: null,
    userId: null,
    sessionId: null,
    release: null,
    version: null,
    input: null,
    output: null,
    metadata: null,
    tags: [],
    public: false,
    environment: patch.environment ?? 'default',
    implicit: false,
    createdAt: now,
    updatedAt: now,
  };
  const settable = base.implicit || !existing;
  return {
    ...base,
    timestamp: settable ? (patch.timestamp ?? eventTime) : base.timestamp,
    environment: settable ? (patch.environment ?? base.environment) : base.environment,
    name: patch.name ?? base.name,
    userId: patch.userId ?? base.userId,
    sessionId: patch.sessionId ?? base.sessionId,
    release: patch.release ?? base.release,
    version: patch.version ?? base.version,
    input: patch.input ?? base.input,
    output: patch.output ?? base.output,
    metadata: mergeMetadata(base.metadata, patch.metadata),
    tags: patch.tags ? [...new Set([...base.tags, ...patch.tags])].sort() : base.tags,
    public: patch.public ?? base.public,
    implicit: patch.keepImplicit === true ? base.implicit || !existing : false,
    updatedAt: now,
  };
}

/** The trace an observation implies when no trace-create came (yet): its id, time, environment. */
export function implicitTrace(observation: ObservationRecord, now: Date): TraceRecord {
  return {
    projectId: observation.projectId,
    id: observation.traceId,
    timestamp: observation.startTime,
    name: null,
    userId: null,
    sessionId: null,
    release: null,
    version: null,
    input: null,
    output: null,
    metadata: null,
    tags: [],
    public: false,
    environment: observation.environment,
    implicit: true,
    createdAt: now,
    updatedAt: now,
  };
}

export function mergeObservation(
  existing: ObservationRecord | undefined,
  patch: ObservationPatch,
  op: 'create' | 'update',
  type: ObservationType,
  eventTime: Date,
  now: Date,
  projectId: number,
): ObservationRecord {
  const base: ObservationRecord = existing ?? {
    projectId,
    id: patch.id,
    // Langfuse: an observation without a trace gets a wrapper trace with its own id.
    traceId: patch.traceId ?? patch.id,
    parentObservationId: null,
    type,
    name: null,
    startTime: patch.startTime ?? eventTime,
    endTime: null,
    completionStartTime: null,
    model: null,
    modelParameters: null,
    input: null,
    output: null,
    metadata: null,
    level: 'DEFAULT',
    statusMessage: null,
    version: null,
    environment: patch.environment ?? 'default',
    promptName: null,
    promptVersion: null,
    usageDetails: {},
    costDetails: {},
    providedUsageDetails: {},
    providedCostDetails: {},
    totalCost: null,
    modelId: null,
    inputPrice: null,
    outputPrice: null,
    totalPrice: null,
    unit: null,
    implicit: op === 'update',
    createdAt: now,
    updatedAt: now,
  };
  const settable = !existing || (base.implicit && op === 'create');
  return {
    ...base,
    traceId: settable ? (patch.traceId ?? base.traceId) : base.traceId,
    startTime: settable ? (patch.startTime ?? base.startTime) : base.startTime,
    environment: settable ? (patch.environment ?? base.environment) : base.environment,
    // An update event names the type family (span/generation): a create's type is kept.
    type: op === 'create' || !existing ? type : base.type,
    parentObservationId: patch.parentObservationId ?? base.parentObservationId,
    name: patch.name ?? base.name,
    endTime: patch.endTime ?? base.endTime,
    completionStartTime: patch.completionStartTime ?? base.completionStartTime,
    model: patch.model ?? base.model,
    modelParameters: patch.modelParameters
      ? { ...asObject(base.modelParameters), ...patch.modelParameters }
      : base.modelParameters,
    input: patch.input ?? base.input,
    output: patch.output ?? base.output,
    metadata: mergeMetadata(base.metadata, patch.metadata),
    level: patch.level ?? base.level,
    statusMessage: patch.statusMessage ?? base.statusMessage,
    version: patch.version ?? base.version,
    promptName: patch.promptName ?? base.promptName,
    promptVersion: patch.promptVersion ?? base.promptVersion,
    unit: patch.unit ?? base.unit,
    providedUsageDetails:
      patch.usageDetails && Object.keys(patch.usageDetails).length > 0
        ? patch.usageDetails
        : base.providedUsageDetails,
    providedCostDetails:
      patch.costDetails && Object.keys(patch.costDetails).length > 0
        ? patch.costDetails
        : base.providedCostDetails,
    implicit: base.implicit && op === 'update',
    updatedAt: now,
  };
}

export function mergeScore(
  existing: ScoreRecord | undefined,
  patch: ScorePatch,
  eventTime: Date,
  now: Date,
  projectId: number,
): ScoreRecord {
  return {
    projectId,
    id: patch.id,
    traceId: existing?.traceId ?? patch.traceId ?? null,
    observationId: patch.observationId ?? existing?.observationId ?? null,
    sessionId: patch.sessionId ?? existing?.sessionId ?? null,
    datasetRunId: patch.datasetRunId ?? existing?.datasetRunId ?? null,
    name: patch.name,
    value: patch.value,
    stringValue: patch.stringValue,
    dataType: patch.dataType,
    source: patch.source,
    comment: patch.comment ?? existing?.comment ?? null,
    metadata: mergeMetadata(existing?.metadata ?? null, patch.metadata),
    configId: patch.configId ?? existing?.configId ?? null,
    queueId: patch.queueId ?? existing?.queueId ?? null,
    environment: existing?.environment ?? patch.environment ?? 'default',
    timestamp: existing?.timestamp ?? eventTime,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}

/** Deep merge of plain objects (lodash `merge` semantics for JSON); anything else replaces. */
export function mergeMetadata(stored: unknown, sent: unknown): unknown {
  if (sent === undefined || sent === null) return stored;
  if (isPlainObject(stored) && isPlainObject(sent)) {
    const out: Record<string, unknown> = { ...stored };
    for (const [key, value] of Object.entries(sent)) {
      out[key] = value === undefined ? out[key] : mergeMetadata(out[key], value);
    }
    return out;
  }
  return sent;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

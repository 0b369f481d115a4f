import type {
  ObservationRecord,
  ScoreRecord,
  TraceDetail,
  TraceRecord,
  TraceSummary,
} from '../storage/records.js';

/**
 * Records → Langfuse response objects, exactly the fields of `fern/apis/server/definition/
 * commons.yml`: Trace, TraceWithDetails, TraceWithFullDetails, ObservationsView, ScoreV1.
 * Datetimes are ISO 8601 strings; `htmlPath` is Langfuse's `/project/{projectId}/traces/{id}`.
 */
export interface TraceResource {
  id: string;
  timestamp: string;
  name: string | null;
  input: unknown;
  output: unknown;
  sessionId: string | null;
  release: string | null;
  version: string | null;
  userId: string | null;
  metadata: unknown;
  tags: string[];
  public: boolean;
  environment: string;
}

export interface TraceWithDetails extends TraceResource {
  htmlPath: string;
  latency: number;
  totalCost: number;
  observations: string[];
  scores: string[];
}

export interface TraceWithFullDetails extends TraceResource {
  htmlPath: string;
  latency: number;
  totalCost: number;
  observations: ObservationsView[];
  scores: ScoreV1[];
}

export interface ObservationsView {
  id: string;
  traceId: string | null;
  type: string;
  name: string | null;
  startTime: string;
  endTime: string | null;
  completionStartTime: string | null;
  model: string | null;
  modelParameters: unknown;
  input: unknown;
  version: string | null;
  metadata: unknown;
  output: unknown;
  usage: {
    input: number;
    output: number;
    total: number;
    unit: string | null;
    inputCost?: number;
    outputCost?: number;
    totalCost?: number;
  };
  level: string;
  statusMessage: string | null;
  parentObservationId: string | null;
  promptId: string | null;
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  environment: string;
  promptName: string | null;
  promptVersion: number | null;
  modelId: string | null;
  inputPrice: number | null;
  outputPrice: number | null;
  totalPrice: number | null;
  calculatedInputCost: number | null;
  calculatedOutputCost: number | null;
  calculatedTotalCost: number | null;
  latency: number | null;
  timeToFirstToken: number | null;
}

export interface ScoreV1 {
  id: string;
  traceId: string;
  name: string;
  source: string;
  observationId: string | null;
  timestamp: string;
  createdAt: string;
  updatedAt: string;
  authorUserId: string | null;
  comment: string | null;
  metadata: unknown;
  configId: string | null;
  queueId: string | null;
  environment: string;
  dataType: string;
  value?: number;
  stringValue?: string;
}

export function toTraceResource(t: TraceRecord): TraceResource {
  return {
    id: t.id,
    timestamp: t.timestamp.toISOString(),
    name: t.name,
    input: t.input ?? null,
    output: t.output ?? null,
    sessionId: t.sessionId,
    release: t.release,
    version: t.version,
    userId: t.userId,
    metadata: t.metadata ?? null,
    tags: t.tags,
    public: t.public,
    environment: t.environment,
  };
}

export function htmlPath(t: TraceRecord): string {
  return `/project/${t.projectId}/traces/${encodeURIComponent(t.id)}`;
}

export function toTraceWithDetails(s: TraceSummary): TraceWithDetails {
  return {
    ...toTraceResource(s.trace),
    htmlPath: htmlPath(s.trace),
    latency: s.latency,
    totalCost: s.totalCost,
    observations: s.observationIds,
    scores: s.scoreIds,
  };
}

export function toTraceWithFullDetails(d: TraceDetail): TraceWithFullDetails {
  return {
    ...toTraceResource(d.trace),
    htmlPath: htmlPath(d.trace),
    latency: d.latency,
    totalCost: d.totalCost,
    observations: d.observations.map(toObservationsView),
    scores: d.scores.flatMap((s) => {
      const v = toScoreV1(s);
      return v ? [v] : [];
    }),
  };
}

export function toObservationsView(o: ObservationRecord): ObservationsView {
  const usage: ObservationsView['usage'] = {
    input: o.usageDetails['input'] ?? 0,
    output: o.usageDetails['output'] ?? 0,
    total: o.usageDetails['total'] ?? 0,
    unit: o.unit ?? (Object.keys(o.usageDetails).length > 0 ? 'TOKENS' : null),
  };
  if (o.costDetails['input'] !== undefined) usage.inputCost = o.costDetails['input'];
  if (o.costDetails['output'] !== undefined) usage.outputCost = o.costDetails['output'];
  if (o.totalCost !== null) usage.totalCost = o.totalCost;
  return {
    id: o.id,
    traceId: o.traceId,
    type: o.type,
    name: o.name,
    startTime: o.startTime.toISOString(),
    endTime: o.endTime?.toISOString() ?? null,
    completionStartTime: o.completionStartTime?.toISOString() ?? null,
    model: o.model,
    modelParameters: o.modelParameters ?? null,
    input: o.input ?? null,
    version: o.version,
    metadata: o.metadata ?? null,
    output: o.output ?? null,
    usage,
    level: o.level,
    statusMessage: o.statusMessage,
    parentObservationId: o.parentObservationId,
    promptId: null,
    usageDetails: o.usageDetails,
    costDetails: o.costDetails,
    environment: o.environment,
    promptName: o.promptName,
    promptVersion: o.promptVersion,
    modelId: o.modelId,
    inputPrice: o.inputPrice,
    outputPrice: o.outputPrice,
    totalPrice: o.totalPrice,
    calculatedInputCost: o.costDetails['input'] ?? null,
    calculatedOutputCost: o.costDetails['output'] ?? null,
    calculatedTotalCost: o.totalCost,
    latency: o.endTime ? (o.endTime.getTime() - o.startTime.getTime()) / 1000 : null,
    timeToFirstToken: o.completionStartTime
      ? (o.completionStartTime.getTime() - o.startTime.getTime()) / 1000
      : null,
  };
}

/** ScoreV1 (NUMERIC, CATEGORICAL, BOOLEAN, TEXT); trace-less and CORRECTION scores are not listed. */
export function toScoreV1(s: ScoreRecord): ScoreV1 | null {
  if (s.traceId === null || s.dataType === 'CORRECTION') return null;
  const base: ScoreV1 = {
    id: s.id,
    traceId: s.traceId,
    name: s.name,
    source: s.source,
    observationId: s.observationId,
    timestamp: s.timestamp.toISOString(),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    authorUserId: null,
    comment: s.comment,
    metadata: s.metadata ?? null,
    configId: s.configId,
    queueId: s.queueId,
    environment: s.environment,
    dataType: s.dataType,
  };
  if (s.dataType !== 'TEXT') base.value = s.value ?? 0;
  if (s.dataType !== 'NUMERIC' && s.stringValue !== null) base.stringValue = s.stringValue;
  return base;
}

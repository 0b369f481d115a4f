import type {
  ObservationLevel,
  ObservationRecord,
  ObservationType,
  ScoreDataType,
  ScoreRecord,
  ScoreSource,
  TraceRecord,
} from '../records.js';

export const TRACE_COLUMNS = `t.project_id, t.id, t.timestamp, t.name, t.user_id, t.session_id, t.release,
  t.version, t.input, t.output, t.metadata, t.tags, t.public, t.environment, t.implicit,
  t.created_at, t.updated_at`;

export const TRACE_WRITE_COLUMNS = [
  'project_id',
  'id',
  'timestamp',
  'name',
  'user_id',
  'session_id',
  'release',
  'version',
  'input',
  'output',
  'metadata',
  'tags',
  'public',
  'environment',
  'implicit',
  'created_at',
  'updated_at',
] as const;

export const OBSERVATION_WRITE_COLUMNS = [
  'project_id',
  'id',
  'trace_id',
  'parent_observation_id',
  'type',
  'name',
  'start_time',
  'end_time',
  'completion_start_time',
  'model',
  'model_parameters',
  'input',
  'output',
  'metadata',
  'level',
  'status_message',
  'version',
  'environment',
  'prompt_name',
  'prompt_version',
  'usage_details',
  'cost_details',
  'provided_usage_details',
  'provided_cost_details',
  'input_usage',
  'output_usage',
  'total_usage',
  'total_cost',
  'model_id',
  'input_price',
  'output_price',
  'total_price',
  'unit',
  'implicit',
  'created_at',
  'updated_at',
] as const;

export const SCORE_WRITE_COLUMNS = [
  'project_id',
  'id',
  'trace_id',
  'observation_id',
  'session_id',
  'dataset_run_id',
  'name',
  'value',
  'string_value',
  'data_type',
  'source',
  'comment',
  'metadata',
  'config_id',
  'queue_id',
  'environment',
  'timestamp',
  'created_at',
  'updated_at',
] as const;

export interface TraceRow {
  project_id: number;
  id: string;
  timestamp: Date;
  name: string | null;
  user_id: string | null;
  session_id: string | null;
  release: string | null;
  version: string | null;
  input: unknown;
  output: unknown;
  metadata: unknown;
  tags: string[];
  public: boolean;
  environment: string;
  implicit: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ObservationRow {
  project_id: number;
  id: string;
  trace_id: string;
  parent_observation_id: string | null;
  type: string;
  name: string | null;
  start_time: Date;
  end_time: Date | null;
  completion_start_time: Date | null;
  model: string | null;
  model_parameters: unknown;
  input: unknown;
  output: unknown;
  metadata: unknown;
  level: string;
  status_message: string | null;
  version: string | null;
  environment: string;
  prompt_name: string | null;
  prompt_version: number | null;
  usage_details: Record<string, number>;
  cost_details: Record<string, number>;
  provided_usage_details: Record<string, number>;
  provided_cost_details: Record<string, number>;
  total_cost: string | null;
  model_id: string | null;
  input_price: number | null;
  output_price: number | null;
  total_price: number | null;
  unit: string | null;
  implicit: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ScoreRow {
  project_id: number;
  id: string;
  trace_id: string | null;
  observation_id: string | null;
  session_id: string | null;
  dataset_run_id: string | null;
  name: string;
  value: number | null;
  string_value: string | null;
  data_type: string;
  source: string;
  comment: string | null;
  metadata: unknown;
  config_id: string | null;
  queue_id: string | null;
  environment: string;
  timestamp: Date;
  created_at: Date;
  updated_at: Date;
}

export function toTrace(row: TraceRow): TraceRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    timestamp: row.timestamp,
    name: row.name,
    userId: row.user_id,
    sessionId: row.session_id,
    release: row.release,
    version: row.version,
    input: row.input,
    output: row.output,
    metadata: row.metadata,
    tags: row.tags ?? [],
    public: row.public,
    environment: row.environment,
    implicit: row.implicit,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function fromTrace(r: TraceRecord): Record<(typeof TRACE_WRITE_COLUMNS)[number], unknown> {
  return {
    project_id: r.projectId,
    id: r.id,
    timestamp: r.timestamp.toISOString(),
    name: r.name,
    user_id: r.userId,
    session_id: r.sessionId,
    release: r.release,
    version: r.version,
    input: json(r.input),
    output: json(r.output),
    metadata: json(r.metadata),
    tags: r.tags,
    public: r.public,
    environment: r.environment,
    implicit: r.implicit,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function toObservation(row: ObservationRow): ObservationRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    traceId: row.trace_id,
    parentObservationId: row.parent_observation_id,
    type: row.type as ObservationType,
    name: row.name,
    startTime: row.start_time,
    endTime: row.end_time,
    completionStartTime: row.completion_start_time,
    model: row.model,
    modelParameters: row.model_parameters,
    input: row.input,
    output: row.output,
    metadata: row.metadata,
    level: row.level as ObservationLevel,
    statusMessage: row.status_message,
    version: row.version,
    environment: row.environment,
    promptName: row.prompt_name,
    promptVersion: row.prompt_version,
    usageDetails: row.usage_details ?? {},
    costDetails: numbers(row.cost_details),
    providedUsageDetails: row.provided_usage_details ?? {},
    providedCostDetails: numbers(row.provided_cost_details),
    totalCost: row.total_cost === null ? null : Number(row.total_cost),
    modelId: row.model_id,
    inputPrice: row.input_price,
    outputPrice: row.output_price,
    totalPrice: row.total_price,
    unit: row.unit,
    implicit: row.implicit,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function fromObservation(
  r: ObservationRecord,
): Record<(typeof OBSERVATION_WRITE_COLUMNS)[number], unknown> {
  return {
    project_id: r.projectId,
    id: r.id,
    trace_id: r.traceId,
    parent_observation_id: r.parentObservationId,
    type: r.type,
    name: r.name,
    start_time: r.startTime.toISOString(),
    end_time: r.endTime?.toISOString() ?? null,
    completion_start_time: r.completionStartTime?.toISOString() ?? null,
    model: r.model,
    model_parameters: json(r.modelParameters),
    input: json(r.input),
    output: json(r.output),
    metadata: json(r.metadata),
    level: r.level,
    status_message: r.statusMessage,
    version: r.version,
    environment: r.environment,
    prompt_name: r.promptName,
    prompt_version: r.promptVersion,
    usage_details: r.usageDetails,
    cost_details: r.costDetails,
    provided_usage_details: r.providedUsageDetails,
    provided_cost_details: r.providedCostDetails,
    input_usage: sumMatching(r.usageDetails, 'input'),
    output_usage: sumMatching(r.usageDetails, 'output'),
    total_usage: r.usageDetails['total'] ?? 0,
    total_cost: r.totalCost,
    model_id: r.modelId,
    input_price: r.inputPrice,
    output_price: r.outputPrice,
    total_price: r.totalPrice,
    unit: r.unit,
    implicit: r.implicit,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function toScore(row: ScoreRow): ScoreRecord {
  return {
    projectId: row.project_id,
    id: row.id,
    traceId: row.trace_id,
    observationId: row.observation_id,
    sessionId: row.session_id,
    datasetRunId: row.dataset_run_id,
    name: row.name,
    value: row.value,
    stringValue: row.string_value,
    dataType: row.data_type as ScoreDataType,
    source: row.source as ScoreSource,
    comment: row.comment,
    metadata: row.metadata,
    configId: row.config_id,
    queueId: row.queue_id,
    environment: row.environment,
    timestamp: row.timestamp,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function fromScore(r: ScoreRecord): Record<(typeof SCORE_WRITE_COLUMNS)[number], unknown> {
  return {
    project_id: r.projectId,
    id: r.id,
    trace_id: r.traceId,
    observation_id: r.observationId,
    session_id: r.sessionId,
    dataset_run_id: r.datasetRunId,
    name: r.name,
    value: r.value,
    string_value: r.stringValue,
    data_type: r.dataType,
    source: r.source,
    comment: r.comment,
    metadata: json(r.metadata),
    config_id: r.configId,
    queue_id: r.queueId,
    environment: r.environment,
    timestamp: r.timestamp.toISOString(),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

function sumMatching(details: Record<string, number>, needle: string): number {
  let sum = 0;
  for (const [key, value] of Object.entries(details)) {
    if (key.toLowerCase().includes(needle)) sum += value;
  }
  return sum;
}

function numbers(record: Record<string, unknown> | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(record ?? {})) out[k] = Number(v);
  return out;
}

/** JSON values go into jsonb columns as they are; undefined becomes SQL NULL. */
function json(value: unknown): unknown {
  return value === undefined ? null : value;
}

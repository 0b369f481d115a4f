import { z } from 'zod';
import { type ObservationType, SCORE_DATA_TYPES, SCORE_SOURCES } from '../storage/records.js';
import type { ObservationPatch, ParsedEvent, ScorePatch, TracePatch } from './changes.js';
import {
  anyJson,
  costDetails,
  datetime,
  environment,
  id,
  level,
  modelParameters,
  optionalDatetime,
  optionalString,
  usage,
  usageDetails,
} from './event-fields.schema.js';

/**
 * Zod schemas of Langfuse's ingestion events (`fern/apis/server/definition/ingestion.yml`,
 * IngestionEvent and its bodies); the fields they share, with Langfuse's server-side rules, are
 * in `event-fields.schema.ts`.
 */

export const traceBody = z
  .object({
    id: id.nullish(),
    timestamp: optionalDatetime,
    name: z.string().max(1000).nullish(),
    input: anyJson,
    output: anyJson,
    sessionId: optionalString,
    userId: optionalString,
    environment,
    metadata: anyJson,
    release: optionalString,
    version: optionalString,
    public: z.boolean().nullish(),
    tags: z.array(z.string()).nullish(),
  })
  .transform((b): Omit<TracePatch, 'id'> & { id?: string } => ({
    id: b.id ?? undefined,
    timestamp: b.timestamp,
    name: b.name ?? undefined,
    input: b.input,
    output: b.output,
    sessionId: b.sessionId,
    userId: b.userId,
    environment: b.environment,
    metadata: b.metadata,
    release: b.release,
    version: b.version,
    public: b.public ?? undefined,
    tags: b.tags ?? undefined,
  }));

const observationFields = {
  traceId: id.nullish().transform((v) => v ?? undefined),
  environment,
  name: optionalString,
  startTime: optionalDatetime,
  metadata: anyJson,
  input: anyJson,
  output: anyJson,
  level,
  statusMessage: optionalString,
  parentObservationId: optionalString,
  version: optionalString,
  endTime: optionalDatetime,
  completionStartTime: optionalDatetime,
  model: optionalString,
  modelParameters,
  usage,
  usageDetails,
  costDetails,
  promptName: optionalString,
  promptVersion: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? undefined),
};

export const observationBody = z
  .object({ id, ...observationFields })
  .refine((v) => Boolean(v.promptName) === Boolean(v.promptVersion), {
    message: 'promptName and promptVersion must be set together',
  })
  .transform(toObservationPatch);

/** Legacy `observation-create`/`-update` (ObservationBody): the type comes in the body. */
export const legacyObservationBody = z
  .object({ id, type: z.enum(['SPAN', 'GENERATION', 'EVENT']), ...observationFields })
  .transform((b) => ({ type: b.type, patch: toObservationPatch(b) }));

export const scoreBody = z
  .object({
    id: id.nullish(),
    name: z.string().min(1),
    traceId: optionalString,
    sessionId: optionalString,
    datasetRunId: optionalString,
    observationId: optionalString,
    environment,
    comment: optionalString,
    metadata: anyJson,
    source: z.enum(SCORE_SOURCES).default('API'),
    queueId: optionalString,
    configId: optionalString,
    value: z.union([z.number(), z.string()]),
    dataType: z.enum(SCORE_DATA_TYPES).nullish(),
  })
  .superRefine((b, ctx) => {
    const t = b.dataType ?? (typeof b.value === 'number' ? 'NUMERIC' : 'CATEGORICAL');
    const numeric = t === 'NUMERIC' || t === 'BOOLEAN';
    if (numeric !== (typeof b.value === 'number')) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `value must be a ${numeric ? 'number' : 'string'} for data type ${t}`,
      });
    }
    if (t === 'BOOLEAN' && b.value !== 0 && b.value !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'Value must be a number equal to either 0 or 1 for data type BOOLEAN',
      });
    }
    if (t === 'TEXT' && (typeof b.value !== 'string' || b.value.length > 500)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'Text scores hold 1-500 characters',
      });
    }
    if (!b.traceId && !b.sessionId && !b.datasetRunId) {
      ctx.addIssue({
        code: 'custom',
        path: ['traceId'],
        message: 'A score needs a traceId, a sessionId or a datasetRunId',
      });
    }
  })
  .transform((b): Omit<ScorePatch, 'id'> & { id?: string } => {
    const dataType = b.dataType ?? (typeof b.value === 'number' ? 'NUMERIC' : 'CATEGORICAL');
    const numericValue = typeof b.value === 'number' ? b.value : null;
    return {
      id: b.id ?? undefined,
      name: b.name,
      traceId: b.traceId,
      sessionId: b.sessionId,
      datasetRunId: b.datasetRunId,
      observationId: b.observationId,
      environment: b.environment,
      comment: b.comment,
      metadata: b.metadata,
      source: b.source,
      queueId: b.queueId,
      configId: b.configId,
      dataType,
      value:
        dataType === 'TEXT' || dataType === 'CORRECTION'
          ? null
          : dataType === 'CATEGORICAL'
            ? 0
            : numericValue,
      stringValue:
        dataType === 'BOOLEAN'
          ? numericValue === 1
            ? 'True'
            : 'False'
          : typeof b.value === 'string'
            ? b.value
            : null,
    };
  });

const envelope = z.object({
  id,
  timestamp: datetime.transform((v) => new Date(v)),
  type: z.string(),
  body: z.unknown(),
  metadata: z.unknown().optional(),
});

export const CREATE_TYPES: Record<string, ObservationType> = {
  'span-create': 'SPAN',
  'generation-create': 'GENERATION',
  'event-create': 'EVENT',
  'agent-create': 'AGENT',
  'tool-create': 'TOOL',
  'chain-create': 'CHAIN',
  'retriever-create': 'RETRIEVER',
  'evaluator-create': 'EVALUATOR',
  'embedding-create': 'EMBEDDING',
  'guardrail-create': 'GUARDRAIL',
};
export const UPDATE_TYPES: Record<string, ObservationType> = {
  'span-update': 'SPAN',
  'generation-update': 'GENERATION',
};

/** The event types accepted (ingestion.yml IngestionEvent, plus Langfuse's newer *-create). */
export const INGESTION_EVENT_TYPES = [
  'trace-create',
  'score-create',
  'sdk-log',
  'observation-create',
  'observation-update',
  ...Object.keys(CREATE_TYPES),
  ...Object.keys(UPDATE_TYPES),
];

/** The request body: `{batch: [...], metadata?}` (IngestionRequest). */
export const IngestionRequestSchema = z.object({
  batch: z.array(z.unknown()),
  metadata: z.unknown().optional(),
});

/** A parsed event, or why it was refused (reported per event in the 207 answer). */
export type ParseResult =
  { ok: true; event: ParsedEvent } | { ok: false; id: string; message: string };

/**
 * Parses one element of `batch`: the envelope (`id`, `timestamp`, `type`), then the body by type.
 * Refusals carry the event id (or "unknown") and a readable list of the problems.
 */
export function parseIngestionEvent(raw: unknown): ParseResult {
  const rawId =
    typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string'
      ? (raw as { id: string }).id
      : 'unknown';
  const env = envelope.safeParse(raw);
  if (!env.success) return { ok: false, id: rawId, message: describe(env.error) };
  const { id: eventId, timestamp, type, body } = env.data;
  const fail = (error: z.ZodError): ParseResult => ({
    ok: false,
    id: eventId,
    message: describe(error, 'body'),
  });
  if (type === 'trace-create') {
    const r = traceBody.safeParse(body);
    return r.success
      ? { ok: true, event: { kind: 'trace', eventId, timestamp, patch: r.data } }
      : fail(r.error);
  }
  if (type === 'score-create') {
    const r = scoreBody.safeParse(body);
    return r.success
      ? { ok: true, event: { kind: 'score', eventId, timestamp, patch: r.data } }
      : fail(r.error);
  }
  if (type === 'sdk-log') {
    const r = z.object({ log: z.unknown() }).safeParse(body);
    return r.success
      ? { ok: true, event: { kind: 'sdk-log', eventId, timestamp, log: r.data.log } }
      : fail(r.error);
  }
  if (type === 'observation-create' || type === 'observation-update') {
    const r = legacyObservationBody.safeParse(body);
    if (!r.success) return fail(r.error);
    const op = type === 'observation-create' ? 'create' : 'update';
    return {
      ok: true,
      event: {
        kind: 'observation',
        eventId,
        timestamp,
        op,
        type: r.data.type,
        patch: r.data.patch,
      },
    };
  }
  const createType = CREATE_TYPES[type];
  const updateType = UPDATE_TYPES[type];
  if (createType || updateType) {
    const r = observationBody.safeParse(body);
    if (!r.success) return fail(r.error);
    return {
      ok: true,
      event: {
        kind: 'observation',
        eventId,
        timestamp,
        op: createType ? 'create' : 'update',
        type: createType ?? updateType,
        patch: r.data,
      },
    };
  }
  return {
    ok: false,
    id: eventId,
    message: `type: unknown event type "${type}"; expected one of ${INGESTION_EVENT_TYPES.join(', ')}`,
  };
}

function describe(error: z.ZodError, prefix?: string): string {
  return error.issues
    .map((i) => {
      const path = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

type ObservationFields = {
  id: string;
  traceId?: string;
  environment?: string;
  name?: string;
  startTime?: Date;
  metadata?: unknown;
  input?: unknown;
  output?: unknown;
  level?: ObservationPatch['level'];
  statusMessage?: string;
  parentObservationId?: string;
  version?: string;
  endTime?: Date;
  completionStartTime?: Date;
  model?: string;
  modelParameters?: Record<string, unknown>;
  usage?: z.infer<typeof usage>;
  usageDetails?: Record<string, number>;
  costDetails?: Record<string, number>;
  promptName?: string;
  promptVersion?: number;
};

/**
 * Langfuse's reading of usage (worker IngestionService): `usage` gives input/output/total (total
 * defaulting to input + output when no usage details come) and input/output/total cost;
 * `usageDetails` and `costDetails` add to and override those keys.
 */
function toObservationPatch(b: ObservationFields): ObservationPatch {
  const u = b.usage ?? undefined;
  const openAi =
    u && (u.promptTokens != null || u.completionTokens != null || u.totalTokens != null);
  const input = openAi ? u.promptTokens : u?.input;
  const output = openAi ? u.completionTokens : u?.output;
  const explicitTotal = openAi ? u.totalTokens : u?.total;
  const hasDetails = b.usageDetails !== undefined && Object.keys(b.usageDetails).length > 0;
  const total =
    explicitTotal ??
    (!hasDetails
      ? input != null && output != null
        ? input + output
        : (input ?? output)
      : undefined);
  const providedUsage: Record<string, number> = {};
  if (input != null) providedUsage['input'] = input;
  if (output != null) providedUsage['output'] = output;
  if (total != null) providedUsage['total'] = total;
  Object.assign(providedUsage, b.usageDetails ?? {});

  const providedCost: Record<string, number> = {};
  if (u?.inputCost != null) providedCost['input'] = u.inputCost;
  if (u?.outputCost != null) providedCost['output'] = u.outputCost;
  if (u?.totalCost != null) providedCost['total'] = u.totalCost;
  Object.assign(providedCost, b.costDetails ?? {});

  return {
    id: b.id,
    traceId: b.traceId,
    environment: b.environment,
    name: b.name,
    startTime: b.startTime,
    metadata: b.metadata,
    input: b.input,
    output: b.output,
    level: b.level,
    statusMessage: b.statusMessage,
    parentObservationId: b.parentObservationId,
    version: b.version,
    endTime: b.endTime,
    completionStartTime: b.completionStartTime,
    model: b.model,
    modelParameters: b.modelParameters,
    unit: openAi ? 'TOKENS' : (u?.unit ?? undefined),
    usageDetails: Object.keys(providedUsage).length > 0 ? providedUsage : undefined,
    costDetails: Object.keys(providedCost).length > 0 ? providedCost : undefined,
    promptName: b.promptName,
    promptVersion: b.promptVersion,
  };
}

import type { ObservationType } from '../storage/records.js';
import type { Change, ObservationPatch, TracePatch } from '../ingestion/changes.js';
import {
  bool,
  completionStart,
  firstDefined,
  firstString,
  int,
  jsonObject,
  level,
  meaningful,
  nanosToDate,
  numbersOnly,
  parseJson,
  prefixedMetadata,
  str,
} from './otel-attributes.js';
import type { OtlpResourceSpans, OtlpScopeSpans, OtlpSpan } from './otlp-normalize.js';

/**
 * OTLP spans → Langfuse traces and observations, the way Langfuse maps them
 * (packages/shared/src/server/otel/OtelIngestionProcessor.ts, ObservationTypeMapper.ts;
 * docs/analytics.md § OTLP mapping):
 *
 * - trace id = the span's trace id (hex), observation id = span id, parent = parent span id;
 * - a root span (no parent, or `langfuse.internal.as_root`) creates/updates the trace: name
 *   `langfuse.trace.name` or the span name, user/session/tags/public/metadata/release/version/
 *   environment from the `langfuse.*` (and compatible `user.id`, `session.id`) attributes, input
 *   and output from `langfuse.trace.input/output` or the root observation's;
 * - a child span carrying trace attributes updates the trace without creating it;
 * - the observation type comes from `langfuse.observation.type`, OpenInference span kinds, the
 *   GenAI `gen_ai.operation.name`, or model information (→ GENERATION), else SPAN;
 * - model, parameters, usage, cost, prompt, level (status code ERROR → ERROR), status message,
 *   completion start time from `langfuse.observation.*` or the GenAI semantic conventions.
 */
export function mapResourceSpans(
  projectId: number,
  resourceSpans: OtlpResourceSpans[],
  now: Date,
): { changes: Change[]; rejected: number; errors: string[] } {
  const changes: Change[] = [];
  const errors: string[] = [];
  let rejected = 0;
  for (const rs of resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        if (!span.traceId || !span.spanId) {
          rejected++;
          errors.push(`span "${span.name}" has no traceId or spanId`);
          continue;
        }
        changes.push(...mapSpan(projectId, span, ss, rs.resource.attributes, now));
      }
    }
  }
  return { changes, rejected, errors };
}

const TRACE_UPDATE_KEYS = [
  'langfuse.trace.name',
  'langfuse.trace.input',
  'langfuse.trace.output',
  'langfuse.trace.metadata',
  'user.id',
  'session.id',
  'langfuse.trace.public',
  'langfuse.trace.tags',
  'langfuse.user.id',
  'langfuse.session.id',
];

const DIRECT_TYPES: Record<string, ObservationType> = {
  span: 'SPAN',
  generation: 'GENERATION',
  event: 'EVENT',
  embedding: 'EMBEDDING',
  agent: 'AGENT',
  tool: 'TOOL',
  chain: 'CHAIN',
  retriever: 'RETRIEVER',
  guardrail: 'GUARDRAIL',
  evaluator: 'EVALUATOR',
};

const OPENINFERENCE_TYPES: Record<string, ObservationType> = {
  CHAIN: 'CHAIN',
  RETRIEVER: 'RETRIEVER',
  LLM: 'GENERATION',
  EMBEDDING: 'EMBEDDING',
  AGENT: 'AGENT',
  TOOL: 'TOOL',
  GUARDRAIL: 'GUARDRAIL',
  EVALUATOR: 'EVALUATOR',
};

const GENAI_OPERATION_TYPES: Record<string, ObservationType> = {
  chat: 'GENERATION',
  completion: 'GENERATION',
  text_completion: 'GENERATION',
  generate_content: 'GENERATION',
  generate: 'GENERATION',
  embeddings: 'EMBEDDING',
  invoke_agent: 'AGENT',
  create_agent: 'AGENT',
  execute_tool: 'TOOL',
};

const MODEL_KEYS = [
  'langfuse.observation.model.name',
  'gen_ai.response.model',
  'ai.model.id',
  'gen_ai.request.model',
  'llm.response.model',
  'llm.model_name',
  'model',
];

function mapSpan(
  projectId: number,
  span: OtlpSpan,
  scopeSpans: OtlpScopeSpans,
  resource: Record<string, unknown>,
  now: Date,
): Change[] {
  const a = span.attributes;
  const start = nanosToDate(span.startTimeUnixNano) ?? nanosToDate(span.endTimeUnixNano) ?? now;
  const end = nanosToDate(span.endTimeUnixNano) ?? start;
  const isLangfuseSdk = scopeSpans.scope.name.startsWith('langfuse-sdk');
  const isRoot = !span.parentSpanId || String(a['langfuse.internal.as_root']) === 'true';
  const hasTraceUpdates =
    TRACE_UPDATE_KEYS.some((k) => meaningful(a[k])) ||
    Object.keys(a).some((k) => k.startsWith('langfuse.trace.metadata'));
  const environment = extractEnvironment(a, resource);
  const scope = {
    name: scopeSpans.scope.name,
    version: scopeSpans.scope.version,
    attributes: scopeSpans.scope.attributes,
  };

  const observationInput = parseJson(
    firstDefined(a, [
      'langfuse.observation.input',
      'gen_ai.prompt',
      'input.value',
      'gen_ai.input.messages',
    ]),
  );
  const observationOutput = parseJson(
    firstDefined(a, [
      'langfuse.observation.output',
      'gen_ai.completion',
      'output.value',
      'gen_ai.output.messages',
    ]),
  );

  const changes: Change[] = [];
  if (isRoot || hasTraceUpdates) {
    const patch: TracePatch = {
      id: span.traceId,
      timestamp: start,
      environment,
      name: str(a['langfuse.trace.name']) ?? (isRoot ? span.name : undefined),
      userId: str(a['langfuse.user.id']) ?? str(a['user.id']),
      sessionId:
        str(a['langfuse.session.id']) ?? str(a['session.id']) ?? str(a['gen_ai.conversation.id']),
      release: str(a['langfuse.release']) ?? str(resource['langfuse.release']),
      version: str(a['langfuse.version']) ?? str(resource['service.version']),
      public: bool(a['langfuse.trace.public'] ?? a['langfuse.public']),
      tags: extractTags(a),
      input: parseJson(a['langfuse.trace.input']) ?? (isRoot ? observationInput : undefined),
      output: parseJson(a['langfuse.trace.output']) ?? (isRoot ? observationOutput : undefined),
      metadata: {
        ...prefixedMetadata(a, 'langfuse.trace.metadata'),
        resourceAttributes: resource,
        scope,
      },
      keepImplicit: !isRoot,
    };
    if (patch.tags?.length === 0) delete patch.tags;
    changes.push({ kind: 'trace', projectId, eventId: null, timestamp: start, patch });
  }

  const type = observationType(a);
  const usage = extractUsage(a);
  const cost = jsonObject(a['langfuse.observation.cost_details']) ?? gen_aiCost(a);
  const patch: ObservationPatch = {
    id: span.spanId,
    traceId: span.traceId,
    parentObservationId: span.parentSpanId ?? undefined,
    name: extractName(span.name, a),
    startTime: start,
    endTime: end,
    completionStartTime: completionStart(a['langfuse.observation.completion_start_time']),
    model: type === 'AGENT' ? undefined : firstString(a, MODEL_KEYS),
    modelParameters: extractModelParameters(a),
    input: observationInput,
    output: observationOutput,
    metadata: {
      ...prefixedMetadata(a, 'langfuse.observation.metadata'),
      ...(isLangfuseSdk ? {} : { attributes: a }),
      resourceAttributes: resource,
      scope,
    },
    level: level(a['langfuse.observation.level']) ?? (span.status.code === 2 ? 'ERROR' : 'DEFAULT'),
    statusMessage:
      str(a['langfuse.observation.status_message']) ?? span.status.message ?? undefined,
    version: str(a['langfuse.version']) ?? str(resource['service.version']),
    environment,
    promptName:
      type === 'GENERATION'
        ? (str(a['langfuse.observation.prompt.name']) ?? str(a['langfuse.prompt.name']))
        : undefined,
    promptVersion:
      type === 'GENERATION'
        ? int(a['langfuse.observation.prompt.version'] ?? a['langfuse.prompt.version'])
        : undefined,
    usageDetails: usage,
    costDetails: cost ? numbersOnly(cost) : undefined,
  };
  changes.push({
    kind: 'observation',
    projectId,
    eventId: null,
    timestamp: start,
    op: 'create',
    type,
    patch,
  });
  return changes;
}

function observationType(a: Record<string, unknown>): ObservationType {
  const direct = DIRECT_TYPES[str(a['langfuse.observation.type']) ?? ''];
  if (direct) return direct;
  const oi = OPENINFERENCE_TYPES[str(a['openinference.span.kind']) ?? ''];
  if (oi) return oi;
  const op = GENAI_OPERATION_TYPES[str(a['gen_ai.operation.name']) ?? ''];
  if (op) return op;
  const hasModel = [
    'langfuse.observation.model.name',
    'ai.model.id',
    'gen_ai.request.model',
    'gen_ai.response.model',
  ].some((k) => meaningful(a[k]));
  return hasModel ? 'GENERATION' : 'SPAN';
}

function extractName(spanName: string, a: Record<string, unknown>): string {
  return (
    str(a['gen_ai.tool.name']) ?? str(a['logfire.msg']) ?? str(a['ai.toolCall.name']) ?? spanName
  );
}

function extractEnvironment(a: Record<string, unknown>, resource: Record<string, unknown>): string {
  for (const key of [
    'langfuse.environment',
    'deployment.environment.name',
    'deployment.environment',
  ]) {
    const value = a[key] ?? resource[key];
    if (typeof value === 'string' && value) {
      const stripped = value
        .toLowerCase()
        .replace(/^(?:langfuse[-_]?)+/, '')
        .slice(0, 40);
      return stripped && /^[a-z0-9-_]+$/.test(stripped) ? stripped : 'default';
    }
  }
  return 'default';
}

function extractTags(a: Record<string, unknown>): string[] {
  const value = a['langfuse.trace.tags'] ?? a['langfuse.tags'];
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') {
    if (value.trim().startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed)) return parsed.map(String);
      } catch {
        // fall through
      }
    }
    return value.includes(',') ? value.split(',').map((t) => t.trim()) : [value];
  }
  return [];
}

/** Usage: `langfuse.observation.usage_details` (JSON), else the GenAI token counts. */
function extractUsage(a: Record<string, unknown>): Record<string, number> | undefined {
  const explicit = jsonObject(a['langfuse.observation.usage_details']);
  if (explicit) {
    const out = numbersOnly(explicit);
    return Object.keys(out).length > 0 ? out : undefined;
  }
  const input = int(
    a['gen_ai.usage.input_tokens'] ??
      a['gen_ai.usage.prompt_tokens'] ??
      a['llm.token_count.prompt'],
  );
  const output = int(
    a['gen_ai.usage.output_tokens'] ??
      a['gen_ai.usage.completion_tokens'] ??
      a['llm.token_count.completion'],
  );
  const total = int(
    a['gen_ai.usage.total_tokens'] ?? a['llm.usage.total_tokens'] ?? a['llm.token_count.total'],
  );
  const out: Record<string, number> = {};
  if (input !== undefined) out['input'] = input;
  if (output !== undefined) out['output'] = output;
  if (total !== undefined) out['total'] = total;
  return Object.keys(out).length > 0 ? out : undefined;
}

function gen_aiCost(a: Record<string, unknown>): Record<string, unknown> | undefined {
  const cost = Number(a['gen_ai.usage.cost']);
  return Number.isFinite(cost) && cost >= 0 && a['gen_ai.usage.cost'] !== undefined
    ? { total: cost }
    : undefined;
}

function extractModelParameters(a: Record<string, unknown>): Record<string, unknown> | undefined {
  const explicit = jsonObject(a['langfuse.observation.model.parameters']);
  if (explicit) return explicit;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(a)) {
    if (!key.startsWith('gen_ai.request.') || key === 'gen_ai.request.model') continue;
    out[key.slice('gen_ai.request.'.length)] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

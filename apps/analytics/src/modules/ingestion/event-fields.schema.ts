import { z } from 'zod';
import { OBSERVATION_LEVELS } from '../storage/records.js';

/**
 * Zod schemas of the fields Langfuse's ingestion bodies share (`fern/apis/server/definition/
 * ingestion.yml`), with Langfuse's server-side rules for what the definition leaves open: ids
 * 1-800 characters, datetimes ISO 8601 with an offset, environment names normalised, usage given
 * as Langfuse `Usage`, OpenAI usage or a usage-details map. The bodies are in
 * `ingestion-events.schema.ts`.
 */

/** An id: 1-800 characters, no carriage return (Langfuse's rule). */
export const id = z
  .string()
  .min(1)
  .max(800)
  .refine((v) => !v.includes('\r'), { message: 'ID cannot contain carriage return characters' });

/** ISO 8601 with an offset. */
export const datetime = z.iso.datetime({ offset: true });

/** An optional datetime, as a Date (null → undefined). */
export const optionalDatetime = datetime.nullish().transform((v) => (v ? new Date(v) : undefined));

/** An optional string (null → undefined). */
export const optionalString = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

/** Any JSON value (null → undefined: a null does not erase a stored value). */
export const anyJson = z
  .unknown()
  .transform((v) => (v === null ? undefined : v))
  .optional();

/** Langfuse's environment rule: lowercase, no `langfuse` prefix, ≤ 40 of [a-z0-9-_], else `default`. */
export const environment = z
  .unknown()
  .transform((v): string | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') return 'default';
    const stripped = v
      .toLowerCase()
      .replace(/^(?:langfuse[-_]?)+/, '')
      .slice(0, 40);
    return stripped && /^[a-z0-9-_]+$/.test(stripped) ? stripped : 'default';
  })
  .optional();

/** An observation level (ObservationLevel), null → undefined. */
export const level = z
  .enum(OBSERVATION_LEVELS)
  .nullish()
  .transform((v) => v ?? undefined);

const MODEL_UNITS = [
  'CHARACTERS',
  'TOKENS',
  'MILLISECONDS',
  'SECONDS',
  'IMAGES',
  'REQUESTS',
] as const;

/** Langfuse `Usage` or `OpenAIUsage` (`IngestionUsage`): → usage and cost by type, plus unit. */
export const usage = z
  .object({
    input: z.number().int().nullish(),
    output: z.number().int().nullish(),
    total: z.number().int().nullish(),
    unit: z.enum(MODEL_UNITS).nullish(),
    promptTokens: z.number().int().nullish(),
    completionTokens: z.number().int().nullish(),
    totalTokens: z.number().int().nullish(),
    inputCost: z.number().nullish(),
    outputCost: z.number().nullish(),
    totalCost: z.number().nullish(),
  })
  .nullish();

const openAiCompletionUsage = z
  .object({
    prompt_tokens: z.number().int().nonnegative(),
    completion_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    prompt_tokens_details: z.record(z.string(), z.number().int().nonnegative().nullish()).nullish(),
    completion_tokens_details: z
      .record(z.string(), z.number().int().nonnegative().nullish())
      .nullish(),
  })
  .strict()
  .transform((v) =>
    splitDetails(
      v.prompt_tokens,
      v.completion_tokens,
      v.total_tokens,
      v.prompt_tokens_details,
      v.completion_tokens_details,
    ),
  );

// jscpd:ignore-start: OpenAI's Responses usage, a wire format of its own beside the Chat Completions one above; the field names differ.
const openAiResponseUsage = z
  .object({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    input_tokens_details: z.record(z.string(), z.number().int().nonnegative().nullish()).nullish(),
    output_tokens_details: z.record(z.string(), z.number().int().nonnegative().nullish()).nullish(),
  })
  .strict()
  .transform((v) =>
    splitDetails(
      v.input_tokens,
      v.output_tokens,
      // jscpd:ignore-end
      v.total_tokens,
      v.input_tokens_details,
      v.output_tokens_details,
    ),
  );

/** `map<string, integer>`: non-negative integers (numeric strings accepted), others dropped. */
const rawUsageDetails = z.record(z.string(), z.unknown()).transform((v) => {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(v)) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[key] = value;
    else if (typeof value === 'string' && /^\d+$/.test(value)) out[key] = Number(value);
  }
  return out;
});

/** `usageDetails`: OpenAI completion or response usage, or a `map<string, integer>`. */
export const usageDetails = z
  .union([openAiCompletionUsage, openAiResponseUsage, rawUsageDetails])
  .nullish()
  .transform((v) => v ?? undefined);

/** `map<string, double>`: non-negative numbers kept, others dropped. */
export const costDetails = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((v) => {
    if (!v) return undefined;
    const out: Record<string, number> = {};
    for (const [key, value] of Object.entries(v)) {
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) out[key] = value;
    }
    return out;
  });

/** `modelParameters` (`map<string, MapValue>`), null → undefined. */
export const modelParameters = z
  .record(
    z.string(),
    z
      .union([
        z.string(),
        z.number(),
        z.boolean(),
        z.array(z.string()),
        z.record(z.string(), z.string()),
      ])
      .nullish(),
  )
  .nullish()
  .transform((v) => v ?? undefined);

/** OpenAI usage → `input`/`output`/`total` plus `input_<detail>`/`output_<detail>` keys. */
function splitDetails(
  input: number,
  output: number,
  total: number,
  inputDetails: Record<string, number | null | undefined> | null | undefined,
  outputDetails: Record<string, number | null | undefined> | null | undefined,
): Record<string, number> {
  const result: Record<string, number> = { input, output, total };
  for (const [key, value] of Object.entries(inputDetails ?? {})) {
    if (value == null) continue;
    result[`input_${key}`] = value;
    result['input'] = Math.max(result['input'] - value, 0);
  }
  for (const [key, value] of Object.entries(outputDetails ?? {})) {
    if (value == null) continue;
    result[`output_${key}`] = value;
    result['output'] = Math.max(result['output'] - value, 0);
  }
  return result;
}

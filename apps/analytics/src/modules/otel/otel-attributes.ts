import type { ObservationLevel } from '../storage/records.js';

/**
 * Reading OTLP span attribute values the way Langfuse does (packages/shared/src/server/otel/
 * OtelIngestionProcessor.ts; docs/analytics.md § OTLP mapping): SDKs serialise non-string values
 * to JSON, so values are parsed back where a structure is expected.
 */

/** `{prefix}` as a JSON object plus every `{prefix}.key` attribute. */
export function prefixedMetadata(
  a: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(jsonObject(a[prefix]) ?? {}) };
  for (const [key, value] of Object.entries(a)) {
    if (key.startsWith(`${prefix}.`)) out[key.slice(prefix.length + 1)] = parseJson(value);
  }
  return out;
}

/** A completion start time: an ISO datetime, or one JSON-encoded as a string. */
export function completionStart(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const direct = new Date(value);
  if (!Number.isNaN(direct.getTime()) && /\d{4}-\d{2}-\d{2}T/.test(value)) return direct;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'string') {
      const d = new Date(parsed);
      if (!Number.isNaN(d.getTime())) return d;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** OTLP nanoseconds since the epoch (decimal string) → Date, millisecond precision. */
export function nanosToDate(nanos: string | null): Date | undefined {
  if (!nanos) return undefined;
  return new Date(Number(BigInt(nanos) / 1_000_000n));
}

/**
 * Langfuse SDKs serialise non-string values to JSON and Langfuse reads them back parsed; a string
 * that is not JSON stays a string.
 */
export function parseJson(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The value (JSON-decoded when a string) if it is a plain object. */
export function jsonObject(value: unknown): Record<string, unknown> | undefined {
  const parsed = parseJson(value);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/** The non-negative finite numbers of a record (numeric strings accepted), others dropped. */
export function numbersOnly(record: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(record)) {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) out[k] = n;
  }
  return out;
}

/** The first of `keys` with a value that is neither undefined nor null. */
export function firstDefined(a: Record<string, unknown>, keys: string[]): unknown {
  for (const key of keys) if (a[key] !== undefined && a[key] !== null) return a[key];
  return undefined;
}

/** The first meaningful value of `keys`, as a string (non-strings JSON-encoded). */
export function firstString(a: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const v = a[key];
    if (meaningful(v)) return typeof v === 'string' ? v : JSON.stringify(v);
  }
  return undefined;
}

/** A Langfuse observation level, or undefined for anything else. */
export function level(value: unknown): ObservationLevel | undefined {
  return value === 'DEBUG' || value === 'DEFAULT' || value === 'WARNING' || value === 'ERROR'
    ? value
    : undefined;
}

/** False for undefined, null, the empty string and the empty array. */
export function meaningful(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** A non-empty string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `true` / `"true"` → true, other defined values → false, undefined/null → undefined. */
export function bool(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  return value === true || value === 'true';
}

/** A non-negative integer (numeric strings accepted), or undefined. */
export function int(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * OTLP trace data, normalised from either encoding (OTLP/JSON as the specification writes it, or
 * the object protobufjs decodes): ids as lowercase hex, times as nanosecond strings, attribute
 * values as plain JavaScript values (arrays, objects for key-value lists).
 */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startTimeUnixNano: string | null;
  endTimeUnixNano: string | null;
  attributes: Record<string, unknown>;
  events: { name: string; timeUnixNano: string | null; attributes: Record<string, unknown> }[];
  status: { code: number; message: string | null };
}

export interface OtlpScopeSpans {
  scope: { name: string; version: string | null; attributes: Record<string, unknown> };
  spans: OtlpSpan[];
}

export interface OtlpResourceSpans {
  resource: { attributes: Record<string, unknown> };
  scopeSpans: OtlpScopeSpans[];
}

/** Thrown for a body that is not an ExportTraceServiceRequest at all (→ 400). */
export class OtlpFormatError extends Error {}

/** `{resourceSpans: [...]}` (either encoding) → normalised resource spans. */
export function normalizeTraceRequest(body: unknown): OtlpResourceSpans[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OtlpFormatError('expected an ExportTraceServiceRequest object');
  }
  const resourceSpans = (body as { resourceSpans?: unknown }).resourceSpans ?? [];
  if (!Array.isArray(resourceSpans)) throw new OtlpFormatError('resourceSpans must be an array');
  return resourceSpans.map((rs: unknown) => {
    const r = obj(rs);
    return {
      resource: { attributes: attributes(obj(r['resource'])['attributes']) },
      scopeSpans: list(r['scopeSpans']).map((ss) => {
        const s = obj(ss);
        const scope = obj(s['scope']);
        return {
          scope: {
            name: str(scope['name']) ?? '',
            version: str(scope['version']),
            attributes: attributes(scope['attributes']),
          },
          spans: list(s['spans']).map(span),
        };
      }),
    };
  });
}

function span(raw: unknown): OtlpSpan {
  const s = obj(raw);
  const status = obj(s['status']);
  return {
    traceId: id(s['traceId'], 16),
    spanId: id(s['spanId'], 8),
    parentSpanId: id(s['parentSpanId'], 8) || null,
    name: str(s['name']) ?? '',
    kind: typeof s['kind'] === 'number' ? s['kind'] : 0,
    startTimeUnixNano: nanos(s['startTimeUnixNano']),
    endTimeUnixNano: nanos(s['endTimeUnixNano']),
    attributes: attributes(s['attributes']),
    events: list(s['events']).map((e) => {
      const ev = obj(e);
      return {
        name: str(ev['name']) ?? '',
        timeUnixNano: nanos(ev['timeUnixNano']),
        attributes: attributes(ev['attributes']),
      };
    }),
    status: {
      code: typeof status['code'] === 'number' ? status['code'] : statusCode(status['code']),
      message: str(status['message']),
    },
  };
}

/** `[{key, value: AnyValue}]` → `{key: value}`. */
export function attributes(raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list(raw)) {
    const { key, value } = obj(kv);
    if (typeof key === 'string') out[key] = anyValue(value);
  }
  return out;
}

function anyValue(raw: unknown): unknown {
  const v = obj(raw);
  if ('stringValue' in v) return v['stringValue'];
  if ('boolValue' in v) return v['boolValue'];
  if ('intValue' in v) {
    const n = Number(v['intValue']);
    return Number.isSafeInteger(n) ? n : String(v['intValue']);
  }
  if ('doubleValue' in v) return Number(v['doubleValue']);
  if ('arrayValue' in v) return list(obj(v['arrayValue'])['values']).map(anyValue);
  if ('kvlistValue' in v) return attributes(obj(v['kvlistValue'])['values']);
  if ('bytesValue' in v) return bytes(v['bytesValue']).toString('base64');
  return null;
}

/** A trace or span id: bytes (protobuf), or hex as OTLP/JSON specifies (base64 tolerated). */
function id(raw: unknown, size: number): string {
  if (raw === undefined || raw === null || raw === '') return '';
  if (typeof raw === 'string') {
    if (new RegExp(`^[0-9a-fA-F]{${size * 2}}$`).test(raw)) return raw.toLowerCase();
    const decoded = Buffer.from(raw, 'base64');
    return decoded.length === size ? decoded.toString('hex') : raw.toLowerCase();
  }
  const b = bytes(raw);
  return b.length === 0 || b.every((x) => x === 0) ? '' : b.toString('hex');
}

function bytes(raw: unknown): Buffer {
  if (raw instanceof Uint8Array) return Buffer.from(raw);
  if (typeof raw === 'string') return Buffer.from(raw, 'base64');
  if (Array.isArray(raw)) return Buffer.from(raw as number[]);
  const data = obj(raw)['data'];
  return Array.isArray(data) ? Buffer.from(data as number[]) : Buffer.alloc(0);
}

/** Nanoseconds as a decimal string (JSON numbers, strings, protobuf longs). */
function nanos(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '' || raw === '0' || raw === 0) return null;
  if (typeof raw === 'string') return /^\d+$/.test(raw) ? raw : null;
  if (typeof raw === 'number')
    return Number.isFinite(raw) ? BigInt(Math.round(raw)).toString() : null;
  const { low, high } = obj(raw);
  if (typeof low === 'number' && typeof high === 'number') {
    return ((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toString();
  }
  return null;
}

function statusCode(raw: unknown): number {
  if (raw === 'STATUS_CODE_OK') return 1;
  if (raw === 'STATUS_CODE_ERROR') return 2;
  return 0;
}

function obj(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
    ? (raw as Record<string, unknown>)
    : {};
}

function list(raw: unknown): unknown[] {
  return Array.isArray(raw) ? raw : [];
}

function str(raw: unknown): string | null {
  return typeof raw === 'string' && raw !== '' ? raw : null;
}

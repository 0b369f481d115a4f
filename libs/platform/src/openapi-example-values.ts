type Json = Record<string, unknown>;

/** Whether the example is for a request (`readOnly` left out) or an answer (`writeOnly` left out). */
export type ExampleDirection = 'request' | 'response';

const DATE_TIME = '2026-01-15T09:30:00.000Z';
const UUID = '3f2a9c4e-8b1d-4c6a-9e2f-7a5b1c0d4e6f';

/**
 * Strings by the name of the property that holds them, first match wins: what a reader expects
 * to see there (an email, a time, an id) instead of a `"string"` placeholder. Only used where
 * the schema says nothing more precise (no `enum`, `const`, `format` or `pattern`).
 */
const NAMED_STRINGS: [RegExp, string][] = [
  [/(^|_)e?mail$|Email$/i, 'ada@example.com'],
  [/^(from|since|start)/i, '2026-01-01T00:00:00.000Z'],
  [/expires|until|^to[A-Z_]|^to$|^end/i, '2030-01-15T09:30:00.000Z'],
  [/(At|_at|^timestamp|Time|_time|^date|Date)$/i, DATE_TIME],
  [/^(id|.*Id|.*_id|.*Ids?)$/, '42'],
  [/^username$/i, 'ada@example.com'],
  [/password|secret/i, 'correct-horse-battery-9'],
  [/phone/i, '+14155550123'],
  [/(url|uri|href|self|next|prev|first|last|link|redirect)$/i, 'https://app.example.com/path'],
  [/token$/i, 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl'],
  [/currency/i, 'USD'],
  [/(^|_)(name|title)$|Name$/i, 'Acme Research'],
  [/(description|note|message|detail|reason|comment|text|content|input|output)$/i, 'An example.'],
  [/(^|_)code$|Code$/i, '123456'],
  [/^type$/, 'resources'],
  [/By$|^sub$|^sid$/, '42'],
  [/^tags?$/, 'production'],
  [/^permissions?$|^prm$/, 'wallets:read'],
  [/^scopes?$|^scp$/, 'read'],
  [/referers?$/i, 'https://app.example.com'],
  [/^credentialType$|^credential_type$/, 'api_key'],
  [/^entity_?[tT]ype$/, 'project'],
  [/^(from_|to_)?asset$|^currency$/i, 'CREDITS'],
  [/address_?[hH]ash$|_wallet$/, '0x3f2a9c4e8b1d4c6a9e2f7a5b1c0d4e6f3f2a9c4e'],
  [/^purpose$/, 'general'],
  [/^provider$/, 'openai'],
  [/^customModels?$|^model$/, 'gpt-4o-mini'],
  [/^language$/, 'en-US'],
  [/^client$/, 'web'],
  [/[cC]lient_?[aA]ddress$/, '192.0.2.10'],
  [/[uU]ser_?[aA]gent$/, 'Mozilla/5.0'],
  [/^(release|version)$/, '1.4.2'],
  [/^(service|app|label|action|outcome|method|algorithm|activity_type|group_by)$/, 'default'],
  [/^(iss|aud)$/, 'https://auth.example.com'],
  [/^jti$|cursor$/, 'c2VlZC0zZjJhOWM0ZQ'],
  [/^lastRotated$/, DATE_TIME],
  [/Svg$/, '<svg xmlns="http://www.w3.org/2000/svg"/>'],
  [/^kty$/, 'EC'],
  [/^crv$/, 'P-256'],
  [/^(x|y|d|n|e|p|q|dp|dq|qi|k)$/, 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU'],
  [/(^|_)(key|publicKey|secretKey)$|Key$/i, 'pk-lf-3f2a9c4e8b1d'],
];

/** Samples for the few `pattern`s the document uses that no name rule above matches. */
const PATTERN_SAMPLES: [RegExp, string][] = [
  [/\\d\{6\}/, '123456'],
  [/\[1-9\]\\d\{0,\d+\}\|\[0-9a-fA-F\]\{8\}/, '42'],
  [/^\^\\\+\?\[1-9\]/, '+44'],
  [/^\^\\\+\[1-9\]/, '+14155550123'],
  [/^\^0\[xX\]/, '0x3f2a9c4e8b1d4c6a9e2f7a5b1c0d4e6f3f2a9c4e'],
  [/\(id\|timestamp\|/, 'timestamp.desc'],
];

const FORMATS: Record<string, string> = {
  'date-time': DATE_TIME,
  date: '2026-01-15',
  time: '09:30:00Z',
  email: 'ada@example.com',
  'idn-email': 'ada@example.com',
  uuid: UUID,
  uri: 'https://app.example.com/path',
  url: 'https://app.example.com/path',
  hostname: 'app.example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
  password: 'correct-horse-battery-9',
  byte: 'aGVsbG8=',
};

/**
 * An example value for a JSON Schema (OpenAPI 3.1), built to satisfy it: `example`, `examples`,
 * `default`, `const` and the first non-null `enum` value are taken as they are; objects carry
 * their declared properties (maps with only `additionalProperties` stay empty); arrays one item
 * (or `minItems`); strings follow `format`, a known `pattern`, or the property's name
 * (`NAMED_STRINGS`), within `minLength`/`maxLength`; numbers lie within their bounds. `$ref`s
 * resolve against `document`. Deterministic: the same schema always gives the same value.
 * Returns `undefined` when it cannot build one (a `not`, a cycle), so no wrong example is shown.
 */
export function exampleValue(
  schema: unknown,
  document: Json,
  direction: ExampleDirection,
  name = '',
  seen: string[] = [],
): unknown {
  if (!schema || typeof schema !== 'object') return schema === true ? 'example' : undefined;
  const s = schema as Json;
  if (typeof s['$ref'] === 'string') {
    const ref = s['$ref'];
    if (seen.includes(ref)) return undefined;
    return exampleValue(resolve(document, ref), document, direction, name, [...seen, ref]);
  }
  if (s['example'] !== undefined) return s['example'];
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if (s['default'] !== undefined) return s['default'];
  if (s['const'] !== undefined) return s['const'];
  if (Array.isArray(s['enum'])) {
    const values = s['enum'] as unknown[];
    const value = values.find((v) => v !== null);
    return value === undefined ? values[0] : value;
  }
  if (s['not'] !== undefined) return undefined;
  if (s['properties'] && (s['oneOf'] || s['anyOf'] || s['allOf'])) {
    return exampleValue(withBranch(s), document, direction, name, seen);
  }
  const branches = (s['oneOf'] ?? s['anyOf']) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const useful = branches.filter((b) => !isNullSchema(b));
    for (const branch of useful.length > 0 ? useful : branches) {
      const value = exampleValue(branch, document, direction, name, seen);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (Array.isArray(s['allOf'])) {
    const parts = s['allOf'].map((part) => exampleValue(part, document, direction, name, seen));
    if (parts.every((p) => p && typeof p === 'object' && !Array.isArray(p))) {
      return Object.assign({}, ...(parts as object[]));
    }
    return parts.find((p) => p !== undefined);
  }
  const type = typeOf(s) ?? 'unknown';
  switch (type) {
    case 'object':
      return objectExample(s, document, direction, seen);
    case 'array': {
      const item = exampleValue(s['items'] ?? {}, document, direction, singular(name), seen);
      if (item === undefined) return [];
      const count = Math.max(1, Number(s['minItems'] ?? 1));
      return Number(s['maxItems'] ?? 1) === 0 ? [] : Array.from({ length: count }, () => item);
    }
    case 'string':
      return stringExample(s, name);
    case 'integer':
    case 'number':
      return numberExample(s, type, name);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/**
 * An object schema whose `oneOf`/`anyOf`/`allOf` add rules over its properties (a field
 * required in one form or another), as one plain object schema: every `allOf` part and the
 * first non-null alternative merged in (their property rules onto the properties, their
 * `required` added), and the fields only the other alternatives require left out, so the
 * example takes one form.
 */
function withBranch(s: Json): Json {
  const { oneOf, anyOf, allOf, ...base } = s;
  const alternatives = ((oneOf ?? anyOf) as Json[] | undefined) ?? [];
  const chosen = alternatives.find((b) => !isNullSchema(b));
  const parts = [...((allOf as Json[] | undefined) ?? []), ...(chosen ? [chosen] : [])];
  const properties = { ...((base['properties'] ?? {}) as Record<string, Json>) };
  const required = new Set((base['required'] as string[] | undefined) ?? []);
  for (const part of parts) {
    for (const [key, rule] of Object.entries((part['properties'] ?? {}) as Record<string, Json>)) {
      properties[key] = properties[key] ? mergeRule(properties[key], rule) : rule;
    }
    for (const key of (part['required'] as string[] | undefined) ?? []) required.add(key);
  }
  for (const other of alternatives.filter((b) => b !== chosen)) {
    for (const key of (other['required'] as string[] | undefined) ?? []) {
      if (!required.has(key)) delete properties[key];
    }
  }
  return { ...base, properties, required: [...required] };
}

/** A property's schema with a branch's extra rules (nested objects merged the same way). */
function mergeRule(property: Json, rule: Json): Json {
  if (typeof property['$ref'] === 'string') return { allOf: [property, rule] };
  if (!property['properties'] && !rule['properties']) return { ...property, ...rule };
  return withBranch({ ...property, allOf: [rule] });
}

function objectExample(
  s: Json,
  document: Json,
  direction: ExampleDirection,
  seen: string[],
): Json | undefined {
  const out: Json = {};
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  for (const [key, property] of Object.entries((s['properties'] ?? {}) as Json)) {
    const p = (property ?? {}) as Json;
    if (direction === 'request' && p['readOnly'] === true) continue;
    if (direction === 'response' && p['writeOnly'] === true) continue;
    const value = exampleValue(property, document, direction, key, seen);
    if (value === undefined) {
      if (required.has(key)) return undefined;
      continue;
    }
    out[key] = value;
  }
  return out;
}

function stringExample(s: Json, name: string): string {
  const named = NAMED_STRINGS.find(([p]) => p.test(name))?.[1];
  const format =
    s['format'] === 'date-time' && named?.endsWith('Z')
      ? named
      : typeof s['format'] === 'string'
        ? FORMATS[s['format']]
        : undefined;
  const pattern = typeof s['pattern'] === 'string' ? s['pattern'] : undefined;
  let value =
    format ??
    (pattern ? PATTERN_SAMPLES.find(([p]) => p.test(pattern))?.[1] : undefined) ??
    NAMED_STRINGS.find(([p]) => p.test(name))?.[1] ??
    'example';
  if (pattern && !safeTest(pattern, value)) {
    const candidates = [...NAMED_STRINGS, ...PATTERN_SAMPLES].map(([, v]) => v);
    value = candidates.find((v) => safeTest(pattern, v)) ?? value;
  }
  const min = Number(s['minLength'] ?? 0);
  const max = s['maxLength'] === undefined ? Infinity : Number(s['maxLength']);
  while (value.length < min) value += 'x';
  return value.length > max ? value.slice(0, max) : value;
}

function numberExample(s: Json, type: 'integer' | 'number', name: string): number {
  const wanted = /page$/i.test(name) ? 1 : /(limit|per_page|size)$/i.test(name) ? 20 : 100;
  let low = -Infinity;
  let high = Infinity;
  if (typeof s['minimum'] === 'number') low = s['minimum'];
  if (typeof s['exclusiveMinimum'] === 'number') low = s['exclusiveMinimum'] + 1;
  if (typeof s['maximum'] === 'number') high = s['maximum'];
  if (typeof s['exclusiveMaximum'] === 'number') high = s['exclusiveMaximum'] - 1;
  let value = Math.min(Math.max(wanted, low), high);
  if (type === 'integer') value = Math.ceil(value);
  const step = typeof s['multipleOf'] === 'number' ? s['multipleOf'] : undefined;
  if (step) value = Math.ceil(value / step) * step;
  return value;
}

function typeOf(s: Json): string | undefined {
  const type = s['type'];
  if (Array.isArray(type)) return (type as string[]).find((t) => t !== 'null') ?? 'null';
  if (typeof type === 'string') return type;
  if (s['properties'] || s['additionalProperties']) return 'object';
  if (s['items']) return 'array';
  return undefined;
}

function isNullSchema(schema: unknown): boolean {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    ((schema as Json)['type'] === 'null' || (schema as Json)['const'] === null)
  );
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/** The schema a local `$ref` (`#/components/...`) points at; undefined when it does not resolve. */
export function resolve(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

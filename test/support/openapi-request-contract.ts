/**
 * The request half of the contract check (docs/api-documentation.md § Contract test): whether
 * a request a test sent is one the published document calls valid — its path parameters,
 * query parameters, documented headers and JSON or form body against their schemas. Only
 * requests the server accepted (2xx) are reported by the setup file: a request a test sends
 * invalid on purpose is refused and is no finding; one the server accepts but the document
 * refuses means the document is narrower than the API.
 */

type Schema = Record<string, unknown>;

export interface DocumentedParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  style?: string;
  explode?: boolean;
}

/** What the setup file saw of a request. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as text, or undefined when none (or not readable: a stream, a file). */
  body?: string;
}

/** A parameter value read from the wire as the document's schema types it. */
export function typedValue(raw: string, schema: Schema | undefined): unknown {
  // The types the schema allows, its own or its alternatives' (`oneOf`/`anyOf`).
  const branches = ((schema?.['oneOf'] ?? schema?.['anyOf']) as Schema[] | undefined) ?? [];
  const types = [schema, ...branches].flatMap((s) => {
    const type = s?.['type'];
    return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
  });
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (
    (types.includes('integer') || types.includes('number')) &&
    /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw)
  ) {
    return Number(raw);
  }
  return raw;
}

/** The query value of one parameter: a list (comma-separated or repeated) or one value. */
export function queryValue(values: string[], parameter: DocumentedParameter): unknown {
  const schema = parameter.schema ?? {};
  if (schema['type'] === 'array') {
    const items = (schema['items'] ?? {}) as Schema;
    const parts = parameter.explode === false ? values.flatMap((v) => v.split(',')) : values;
    return parts.map((p) => typedValue(p, items));
  }
  return typedValue(values[values.length - 1] ?? '', schema);
}

/** The JSON value of a body, by its content type; undefined when it is not JSON or a form. */
export function bodyValue(
  contentType: string,
  body: string,
): { media: string; value: unknown } | undefined {
  if (/application\/x-www-form-urlencoded/i.test(contentType)) {
    return {
      media: 'application/x-www-form-urlencoded',
      value: Object.fromEntries(new URLSearchParams(body)),
    };
  }
  if (!/json/i.test(contentType) && contentType !== '') return undefined;
  try {
    return { media: 'application/json', value: JSON.parse(body) as unknown };
  } catch {
    return undefined;
  }
}

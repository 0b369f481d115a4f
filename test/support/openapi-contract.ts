import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Controllers tests mount themselves (apps/auth/test/support/probe-app.ts), not part of the API. */
const TEST_ONLY_PREFIXES = ['/v1/api/probe/'];

/**
 * Checks HTTP answers against the published OpenAPI document (docs/openapi.json, kept fresh
 * by `npm run openapi` and its staleness test): the route must be documented, the status must
 * be one the operation documents, and a JSON body must validate against that status's schema
 * (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it; objects are closed, so an undocumented
 * field fails). docs/api-documentation.md § Contract test.
 */
export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly operations: {
    method: string;
    template: string;
    pattern: RegExp;
    literalSegments: number;
    responses: Record<string, { content?: Record<string, { schema?: object }> }>;
  }[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  /** The error body of the router's own 404/405 by path prefix (see {@link errorBodyOf}). */
  private readonly errorSchemas: { prefix: string; body: string; schema?: object }[] = [
    { prefix: '/api/public/', body: 'LangfuseErrorBody' },
    { prefix: '/', body: 'ErrorDocument' },
  ];

  constructor(document: {
    paths: Record<string, Record<string, unknown>>;
    components?: Record<string, unknown>;
  }) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: document.components ?? {} });
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const op = operation as { responses?: OpenApiContract['operations'][number]['responses'] };
        if (!op?.responses) continue;
        const segments = template.split('/');
        const source = segments
          .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/');
        this.operations.push({
          method,
          template,
          pattern: new RegExp(`^${source}/?$`),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          responses: op.responses,
        });
      }
    }
    // A literal segment wins over a parameter (`/wallets/transact` before `/wallets/{hash}`).
    this.operations.sort((a, b) => b.literalSegments - a.literalSegments);
    for (const entry of this.errorSchemas) entry.schema = errorBodyOf(document, entry.body);
  }

  static fromFile(file?: string): OpenApiContract {
    const path = file ?? join(__dirname, '..', '..', 'docs', 'openapi.json');
    return new OpenApiContract(JSON.parse(readFileSync(path, 'utf8')) as never);
  }

  /** Whether this path is part of the published API (others, e.g. /health, are not checked). */
  static covers(path: string): boolean {
    if (TEST_ONLY_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
    return path.startsWith('/v1/api/') || path.startsWith('/api/public/');
  }

  /**
   * The problems of one answer (empty when it conforms). `body` is the raw text; an empty body
   * passes when the documented answer has no content.
   */
  check(method: string, url: string, status: number, contentType: string, body: string): string[] {
    const path = new URL(url, 'http://x').pathname;
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const label = `${method.toUpperCase()} ${path} → ${status}`;
    const candidates = this.operations.filter((o) => o.pattern.test(path));
    const operation = candidates.find((o) => o.method === verb);
    if (!operation) {
      // Unknown route or method: the router's own 404/405 with the error body is documented.
      if (status === 404 || status === 405)
        return this.checkBody(label, this.errorRef(path), contentType, body);
      return [`${label}: undocumented route`];
    }
    const response = operation.responses[String(status)] ?? operation.responses['default'];
    if (!response) {
      return [`${label}: status not documented for ${verb.toUpperCase()} ${operation.template}`];
    }
    // HEAD answers carry the status and headers of GET, never a body.
    if (verb !== method.toLowerCase()) return [];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      if (body.length > 0 && !response.content) {
        return [`${label}: a body where the document has none`];
      }
      return [];
    }
    return this.checkBody(label, schema, contentType, body);
  }

  private errorRef(path: string): object {
    return this.errorSchemas.find((e) => path.startsWith(e.prefix))?.schema ?? {};
  }

  private checkBody(label: string, schema: object, contentType: string, body: string): string[] {
    if (!/json/i.test(contentType))
      return body.length > 0 ? [`${label}: not JSON (${contentType})`] : [];
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [`${label}: body is not valid JSON`];
    }
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema));
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${label}: ${e.instancePath || '(body)'} ${e.message ?? ''}${
            e.params && 'additionalProperty' in e.params
              ? ` (${String(e.params.additionalProperty)})`
              : ''
          }`,
      );
  }
}

/**
 * The error body `body` (`ErrorDocument`, `LangfuseErrorBody`) with any code: the document
 * inlines it in each error answer with that answer's code `enum` (docs/api-documentation.md
 * § Error codes per operation); this takes the first answer in that body alone and drops the
 * enum.
 */
function errorBodyOf(
  document: { paths: Record<string, Record<string, unknown>> },
  body: string,
): object | undefined {
  type Schema = { properties?: Record<string, Schema>; items?: Schema; [key: string]: unknown };
  type Answer = {
    'x-error-codes'?: { body: string }[];
    content?: Record<string, { schema?: object }>;
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, Answer> })?.responses ?? {};
      for (const answer of Object.values(responses)) {
        const codes = answer['x-error-codes'] ?? [];
        const schema = answer.content?.['application/json']?.schema;
        if (!schema || codes.length === 0 || codes.some((c) => c.body !== body)) continue;
        const copy = structuredClone(schema) as Schema;
        const item = copy.properties?.['errors']?.items ?? copy;
        if (item.properties?.['code']) item.properties['code'] = { type: 'string' };
        return copy;
      }
    }
  }
  return undefined;
}

/** `#/components/...` refs point into the document registered as `openapi`. */
function rebase(schema: unknown): never {
  if (Array.isArray(schema)) return schema.map(rebase) as never;
  if (schema === null || typeof schema !== 'object') return schema as never;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] =
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v);
  }
  return out as never;
}

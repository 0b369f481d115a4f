import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  bodyValue,
  queryValue,
  typedValue,
  type DocumentedParameter,
  type SentRequest,
} from './openapi-request-contract.js';

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
    parameters: DocumentedParameter[];
    requestBody?: { required?: boolean; content?: Record<string, { schema?: object }> };
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
    const sharedParameters = (document.components?.['parameters'] ?? {}) as Record<
      string,
      DocumentedParameter
    >;
    const parameterOf = (p: DocumentedParameter | { $ref: string }): DocumentedParameter =>
      '$ref' in p ? sharedParameters[p.$ref.split('/').pop() ?? ''] : p;
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: document.components ?? {} });
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const op = operation as {
          responses?: OpenApiContract['operations'][number]['responses'];
          parameters?: (DocumentedParameter | { $ref: string })[];
          requestBody?: OpenApiContract['operations'][number]['requestBody'];
        };
        if (!op?.responses) continue;
        const segments = template.split('/');
        const source = segments
          .map((s) => (/^\{.+\}$/.test(s) ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/');
        this.operations.push({
          method,
          template,
          pattern: new RegExp(`^${source}/?$`),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          responses: op.responses,
          parameters: (op.parameters ?? []).map(parameterOf).filter(Boolean),
          requestBody: op.requestBody,
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

  /**
   * The problems of one request against the document (empty when it conforms): its path
   * parameters, query parameters (lists comma-separated or repeated), documented headers and
   * body (JSON or form; a body the document has no media type for is not read). An
   * undocumented route is the answer check's finding, not this one's.
   */
  checkRequest(request: SentRequest): string[] {
    const url = new URL(request.url, 'http://x');
    const verb = request.method.toLowerCase() === 'head' ? 'get' : request.method.toLowerCase();
    const label = `${request.method.toUpperCase()} ${url.pathname} (request)`;
    const operation = this.operations.find(
      (o) => o.method === verb && o.pattern.test(url.pathname),
    );
    if (!operation) return [];
    const problems: string[] = [];
    const segments = operation.pattern.exec(url.pathname)?.slice(1) ?? [];
    const names = [...operation.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    for (const parameter of operation.parameters) {
      let value: unknown;
      if (parameter.in === 'path') {
        const raw = segments[names.indexOf(parameter.name)];
        value = raw === undefined ? undefined : typedValue(safeDecode(raw), parameter.schema);
      } else if (parameter.in === 'query') {
        const values = url.searchParams.getAll(parameter.name);
        value = values.length > 0 ? queryValue(values, parameter) : undefined;
      } else if (parameter.in === 'header') {
        value = headers[parameter.name.toLowerCase()];
      } else continue;
      if (value === undefined) {
        if (parameter.required)
          problems.push(`${label}: ${parameter.in} ${parameter.name} missing`);
        continue;
      }
      const where = `${parameter.in} ${parameter.name}`;
      problems.push(...this.validate(`${label}: ${where}`, parameter.schema ?? {}, value));
    }
    const content = operation.requestBody?.content;
    const text = request.body ?? '';
    if (content && text.length > 0) {
      const parsed = bodyValue(headers['content-type'] ?? '', text);
      const schema = parsed && content[parsed.media]?.schema;
      if (parsed && schema) problems.push(...this.validate(`${label}: body`, schema, parsed.value));
    } else if (operation.requestBody?.required && text.length === 0 && verb !== 'get') {
      problems.push(`${label}: body missing`);
    }
    return problems;
  }

  private validate(label: string, schema: object, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema));
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${label}: ${e.instancePath || '(value)'} ${e.message ?? ''}`);
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

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
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
export function rebase(schema: unknown): never {
  if (Array.isArray(schema)) return schema.map(rebase) as never;
  if (schema === null || typeof schema !== 'object') return schema as never;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] =
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v);
  }
  return out as never;
}

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sample } from 'openapi-sampler';
import { exampleValue } from '@wp/platform';
import { rebase } from '../openapi-contract.js';
import type { FuzzRequest } from './fuzz-request.js';
import { resolve, type FuzzOperation, type OpenApiDocument, type Schema } from './operations.js';
import { credentials, pathValue } from './requests.js';
import type { FuzzTenant } from './tenant.js';

/**
 * Requests the document calls valid, built without knowledge of the platform beyond the ids in
 * the path and the credentials (docs/api-documentation.md § Schema-valid requests): whatever
 * the server refuses with 400 among them is a constraint it enforces that the document does
 * not state. Per operation, up to four bodies: the document's own example, openapi-sampler's
 * sample with every property, with only the required ones, and a boundary sample (strings at
 * their longest, numbers at their bounds). Each is checked with ajv against the document and
 * dropped when it is not valid there (a generator's limit, not the server's).
 */
export class SchemaValidRequests {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: document.components });
  }

  /** Whether `value` is valid against the schema as the document states it. */
  valid(schema: Schema, value: unknown): boolean {
    return this.ajv.validate(rebase(schema), value);
  }

  requestsFor(tenant: FuzzTenant, operation: FuzzOperation): FuzzRequest[] {
    const path = operation.template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      encodeURIComponent(pathValue(tenant, operation, name)),
    );
    const bodies = operation.body ? this.bodies(operation.body) : [undefined];
    const queries = this.queries(operation);
    const out: FuzzRequest[] = [];
    bodies.forEach((body, index) => {
      out.push({
        kind: 'valid',
        mutation: `variant ${index}`,
        method: operation.method,
        path,
        query: queries[index % queries.length] ?? {},
        headers: credentials(tenant, operation),
        body: body === undefined ? undefined : { json: body },
      });
    });
    return out;
  }

  private bodies(schema: Schema): unknown[] {
    const doc = this.document as unknown as Record<string, unknown>;
    const candidates = [
      exampleValue(schema, doc, 'request'),
      sample(schema, { skipReadOnly: true, quiet: true }, this.document),
      sample(schema, { skipReadOnly: true, skipNonRequired: true, quiet: true }, this.document),
      boundary(this.document, schema, ''),
    ];
    const seen = new Set<string>();
    return candidates.filter((c) => {
      const key = JSON.stringify(c);
      if (c === undefined || seen.has(key) || !this.valid(schema, c)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Query strings: the required parameters, then every parameter, each sampled. */
  private queries(operation: FuzzOperation): Record<string, string>[] {
    const doc = this.document as unknown as Record<string, unknown>;
    const build = (all: boolean) => {
      const query: Record<string, string> = {};
      for (const parameter of operation.query) {
        if (!all && !parameter.required) continue;
        const value = exampleValue(parameter.schema, doc, 'request', parameter.name);
        if (value === undefined || !this.valid(parameter.schema, value)) continue;
        query[parameter.name] = Array.isArray(value)
          ? value.join(',')
          : JSON.stringify(value).replace(/^"|"$/g, '');
      }
      return query;
    };
    return [build(false), build(true)];
  }
}

/** A value at the schema's limits: longest strings, largest numbers, longest arrays (≤ 3). */
function boundary(document: OpenApiDocument, node: Schema | undefined, name: string): unknown {
  const s = resolve(document, node);
  const branches = (s['oneOf'] ?? s['anyOf']) as Schema[] | undefined;
  if (branches) return boundary(document, branches.at(-1), name);
  if (s['const'] !== undefined) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'].filter((v) => v !== null).at(-1);
  const type = Array.isArray(s['type'])
    ? (s['type'] as string[]).find((t) => t !== 'null')
    : s['type'];
  if (type === 'object' || s['properties']) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries((s['properties'] ?? {}) as Record<string, Schema>)) {
      const value = boundary(document, child, key);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (type === 'array') {
    const count = Math.min(3, Number(s['maxItems'] ?? 3));
    const item = boundary(document, s['items'] as Schema, name);
    return Array.from({ length: Math.max(count, Number(s['minItems'] ?? 0)) }, () => item);
  }
  if (type === 'integer' || type === 'number') {
    if (typeof s['maximum'] === 'number') return s['maximum'];
    if (typeof s['exclusiveMaximum'] === 'number') return s['exclusiveMaximum'] - 1;
    return type === 'integer' ? 2 ** 31 - 1 : 1e9;
  }
  if (type === 'boolean') return false;
  if (type === 'string') {
    const plain = exampleValue(s, document as never, 'request', name) as string;
    if (s['format'] || s['pattern']) return plain;
    const max = Math.min(Number(s['maxLength'] ?? 300), 300);
    return 'y'.repeat(max);
  }
  return undefined;
}

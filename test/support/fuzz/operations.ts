import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The published OpenAPI document (docs/openapi.json), as the fuzzer reads it. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Schema> };
}

export type Schema = Record<string, unknown>;

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

/** One operation of the document, with what a request to it needs. */
export interface FuzzOperation {
  method: string;
  /** `/v1/api/organizations/{organizationId}` */
  template: string;
  pathParameters: string[];
  query: { name: string; required: boolean; schema: Schema }[];
  /** JSON Schema of the `application/json` body, when the operation documents one. */
  body?: Schema;
  /** The statuses the document lists for it. */
  statuses: Set<number>;
  /** Security schemes of its first requirement: `apiKey`, `bearer`, `adminAccess`, `basic`. */
  security: string[];
}

export function loadOpenApiDocument(): OpenApiDocument {
  return JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8'),
  ) as OpenApiDocument;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApiDocument): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.responses) continue;
      const parameters = operation.parameters ?? [];
      out.push({
        method: method.toUpperCase(),
        template,
        pathParameters: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
        body: operation.requestBody?.content?.['application/json']?.schema,
        statuses: new Set(Object.keys(operation.responses).map(Number)),
        security: Object.keys(operation.security?.[0] ?? {}),
      });
    }
  }
  return out;
}

/** `#/components/schemas/X` → the schema; anything else as it is. */
export function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current['$ref'] === 'string' && hops < 20; hops++) {
    const name = current['$ref'].split('/').pop() ?? '';
    current = document.components.schemas[name] ?? {};
  }
  return current;
}

/**
 * Every property path of a body schema (`['data', 'attributes', 'role']`; array items as index
 * 0), objects merged through `allOf`, the first alternative of `anyOf`/`oneOf` followed, at most
 * `maxDepth` deep: where a field can be sent.
 */
export function propertyPaths(
  document: OpenApiDocument,
  schema: Schema | undefined,
  maxDepth = 6,
): (string | number)[][] {
  const paths: (string | number)[][] = [];
  const walk = (node: Schema | undefined, path: (string | number)[]) => {
    if (path.length >= maxDepth) return;
    const s = resolve(document, node);
    for (const part of (s['allOf'] as Schema[] | undefined) ?? []) walk(part, path);
    const alternative = ((s['anyOf'] ?? s['oneOf']) as Schema[] | undefined)?.[0];
    if (alternative) walk(alternative, path);
    const items = s['items'] as Schema | undefined;
    if (items) walk(items, [...path, 0]);
    for (const [name, child] of Object.entries((s['properties'] as Record<string, Schema>) ?? {})) {
      paths.push([...path, name]);
      walk(child, [...path, name]);
    }
  };
  walk(schema, []);
  return paths;
}

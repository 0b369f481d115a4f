import { STATUS_DEFAULTS } from '@wp/http';
import { exampleValue, type ExampleDirection } from './openapi-example-values.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * Gives every JSON request and response body of an OpenAPI 3.1 document an `example` where it
 * has none: success and request bodies get `exampleValue` of their schema (realistic values
 * that satisfy it: enums, formats, patterns, bounds, property names; `$ref`s resolved against
 * the document); JSON:API error
 * answers (`errorBodyName`) show the status's own default code and title (`STATUS_DEFAULTS`,
 * docs/architecture.md § Error body). Examples are illustrations derived from the same schemas the
 * answers are validated against, so they cannot drift from them. Mutates `document`.
 */
export function addExamples(document: Json, errorBodyName?: string): void {
  const paths = (document['paths'] ?? {}) as Record<string, Json>;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const body = operation['requestBody'] as Json | undefined;
      if (body) exampleFor(body, document, 'request');
      const responses = (operation['responses'] ?? {}) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        const error = errorExample(Number(status), response, errorBodyName);
        exampleFor(response, document, 'response', error);
      }
    }
  }
}

function exampleFor(
  holder: Json,
  document: Json,
  direction: ExampleDirection,
  fixed?: unknown,
): void {
  const media = (holder['content'] as Record<string, Json> | undefined)?.['application/json'];
  if (!media || media['example'] !== undefined || media['examples'] !== undefined) return;
  const schema = media['schema'] as Json | undefined;
  if (!schema || Object.keys(schema).length === 0) return;
  // A schema no value can be built for keeps no example rather than a wrong one.
  const example = fixed ?? exampleValue(schema, document, direction);
  if (example !== undefined) media['example'] = example;
}

/** `{"errors":[{status, code, title, detail}]}` for a JSON:API error answer; else undefined. */
function errorExample(status: number, response: Json, errorBodyName?: string): unknown {
  if (!errorBodyName || status < 400) return undefined;
  const media = (response['content'] as Record<string, Json> | undefined)?.['application/json'];
  const ref = (media?.['schema'] as Json | undefined)?.['$ref'];
  if (ref !== `#/components/schemas/${errorBodyName}` || errorBodyName !== 'ErrorDocument') {
    return undefined;
  }
  const known = STATUS_DEFAULTS[status] ?? { code: 'ERROR', title: 'Error' };
  return {
    errors: [
      {
        status: String(status),
        code: known.code,
        title: known.title,
        detail: typeof response['description'] === 'string' ? response['description'] : known.title,
        meta: { requestId: 'req-3f2a9c' },
      },
    ],
  };
}

/**
 * Removes the `components.schemas` that nothing in the document refers to (operations that
 * inline a schema leave its named copy behind), so linters and generators see no dead types.
 * Follows `$ref`s from everything outside `components.schemas`, then through the schemas kept.
 * Mutates `document`.
 */
export function pruneComponents(document: Json): void {
  const components = document['components'] as Json | undefined;
  const schemas = (components?.['schemas'] ?? {}) as Json;
  const used = new Set<string>();
  const prefix = '#/components/schemas/';
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
        const name = value.slice(prefix.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit({ ...document, components: { ...components, schemas: {} } });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

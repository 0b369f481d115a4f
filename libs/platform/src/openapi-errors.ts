import type { RouteFacts } from './openapi-operations.js';

/**
 * One error an operation can answer: its HTTP status, the `code` of its body and its title
 * (JSON:API `title`; Langfuse's error name for analytics). Read from the code by
 * scripts/openapi-error-codes.js (docs/api-documentation.md § Error codes per operation).
 */
export interface OperationError {
  status: number;
  code: string;
  title: string;
}

/**
 * The errors every route of a service can meet besides its own, by when they apply: `all`
 * routes (bad URL, U+0000 in a parameter, headers too large, shutting down, database down),
 * routes with path `parameters` (one too long), routes with a `body` (malformed or too deeply
 * nested JSON, too large, not JSON), routes behind the global Api-Key guard (`apiKey`) and the
 * global Bearer guard (`bearer`).
 */
export interface FrameworkErrors {
  all: OperationError[];
  parameters: OperationError[];
  body: OperationError[];
  apiKey: OperationError[];
  bearer: OperationError[];
}

/** A documented code: what `x-error-codes` of an error response lists. */
export interface DocumentedErrorCode {
  code: string;
  title: string;
  /** The error body schema (components) the code is answered in. */
  body: string;
}

type Json = Record<string, unknown>;

/** Short meaning of each error status (docs/api-documentation.md § How the document is made). */
export const ERROR_STATUS_MEANINGS: Record<string, string> = {
  '400': 'Invalid input (malformed JSON, unknown or invalid fields or parameters).',
  '401': 'Missing, invalid or expired credentials.',
  '403': 'Authenticated, but not allowed.',
  '404': 'Unknown resource, or not visible to the caller.',
  '409': 'Conflicts with the current state.',
  '413': 'Body larger than the limit.',
  '414': 'A path segment longer than the limit (100 characters).',
  '415': 'Body not JSON.',
  '422': 'Well formed, but breaks a business rule.',
  '429': 'Rate limited; `Retry-After` says when to try again.',
  '431': 'Request headers (with the request line) larger than the limit (16 KB).',
  '502': 'The service answered the gateway with something that is not HTTP.',
  '503':
    'A dependency is down, the service is shutting down or cannot be reached, or the request kept conflicting with concurrent ones; `Retry-After` is set.',
  '504': 'The service did not answer in time.',
};

/**
 * The errors one operation can answer, by status (ascending): its own (`own`, from its method,
 * guards and pipes) plus the framework's that apply to it — the Api-Key guard where a key is
 * checked (also analytics' Basic routes, where a key sent is validated), the Bearer guard on
 * `api-key+bearer` routes, the body errors on routes with a body, the parameter errors on
 * routes with a path parameter.
 */
export function operationErrors(
  own: OperationError[],
  framework: FrameworkErrors | undefined,
  facts: RouteFacts | undefined,
  hasBody: boolean,
  hasPathParameters = false,
): Map<string, OperationError[]> {
  const all = [...own, ...(framework?.all ?? [])];
  if (framework && hasPathParameters) all.push(...framework.parameters);
  const authentication = facts?.authentication ?? 'none';
  if (framework && authentication !== 'none') all.push(...framework.apiKey);
  if (framework && authentication === 'api-key+bearer') all.push(...framework.bearer);
  if (framework && hasBody) all.push(...framework.body);
  const byStatus = new Map<string, OperationError[]>();
  for (const error of all) {
    const list = byStatus.get(String(error.status)) ?? [];
    const known = list.findIndex((e) => e.code === error.code);
    if (known < 0) list.push(error);
    else if (!list[known].title.split(' / ').includes(error.title)) {
      list[known] = { ...list[known], title: `${list[known].title} / ${error.title}` };
    }
    byStatus.set(String(error.status), list);
  }
  return new Map([...byStatus].sort(([a], [b]) => Number(a) - Number(b)));
}

/**
 * Adds error codes to an operation's answer for one status (creating the answer when there is
 * none) and rewrites it from the whole list: `x-error-codes` (`DocumentedErrorCode[]`), a
 * description (the status's meaning, or the route's own text, then a table of codes and titles),
 * and a schema per error body — the body's `$ref` with an `enum` of its codes on the `code` the
 * body carries (`errors[].code` in `ErrorDocument`, `code` in `LangfuseErrorBody`); `anyOf` when
 * several bodies can answer (analytics behind the gateway). The enum is what the contract test
 * (docs/api-documentation.md § Contract test) holds each answer to. Mutates `responses`.
 */
export function addErrorCodes(
  responses: Record<string, Json>,
  status: string,
  body: string,
  errors: { code: string; title: string }[],
  meaning?: string,
): void {
  const existing = responses[status];
  const documented = [...((existing?.['x-error-codes'] as DocumentedErrorCode[]) ?? [])];
  for (const { code, title } of errors) {
    if (!documented.some((d) => d.code === code && d.body === body)) {
      documented.push({ code, title, body });
    }
  }
  const previous = typeof existing?.['description'] === 'string' ? existing['description'] : '';
  const text = meaning ?? (previous.split('\n\n| Code |')[0] || ERROR_STATUS_MEANINGS[status]);
  const bodies = [...new Set(documented.map((d) => d.body))];
  const schemas = bodies.map((name) =>
    codeSchema(
      name,
      documented.filter((d) => d.body === name).map((d) => d.code),
    ),
  );
  const rows = documented.map((d) => `| \`${d.code}\` | ${d.title} |`);
  const first = documented[0];
  responses[status] = {
    description: `${text ?? 'Error.'}\n\n| Code | Title |\n| --- | --- |\n${rows.join('\n')}`,
    'x-error-codes': documented,
    content: {
      'application/json': {
        schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas },
        example: exampleOf(Number(status), first, text ?? first.title),
      },
    },
  };
}

/**
 * The error body's schema with the enum of its codes where that body keeps its code
 * (`errors[].code` in `ErrorDocument`, `code` in `LangfuseErrorBody`). Until
 * {@link closeErrorSchemas} runs, the body is a `$ref` under `allOf`.
 */
function codeSchema(body: string, codes: string[]): Json {
  const code = { type: 'string', enum: codes };
  const constraint =
    body === 'ErrorDocument'
      ? {
          type: 'object',
          properties: {
            errors: { type: 'array', items: { type: 'object', properties: { code } } },
          },
        }
      : { type: 'object', properties: { code } };
  return { allOf: [{ $ref: `#/components/schemas/${body}` }, constraint] };
}

/**
 * Rewrites every error answer's schema (`allOf` of the body's `$ref` and a code enum, as
 * {@link addErrorCodes} writes it) as one closed schema: a copy of the body from
 * `components.schemas` with the enum in place of its `code` property. Generators that close
 * objects (`additionalProperties: false`) reject an `allOf` of two closed parts, and linters
 * check examples against it (docs/api-documentation.md § Error codes per operation). Run
 * last, once the bodies are in the document. Mutates `document`.
 */
export function closeErrorSchemas(document: Json): void {
  const bodies = ((document['components'] as Json | undefined)?.['schemas'] ?? {}) as Json;
  for (const item of Object.values((document['paths'] ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item)) {
      const responses = ((operation as Json | undefined)?.['responses'] ?? {}) as Record<
        string,
        Json
      >;
      for (const response of Object.values(responses)) {
        const media = (response['content'] as Record<string, Json> | undefined)?.[
          'application/json'
        ];
        if (!media || !response['x-error-codes']) continue;
        media['schema'] = closed(media['schema'] as Json, bodies);
      }
    }
  }
}

function closed(schema: Json, bodies: Json): Json {
  if (Array.isArray(schema['anyOf'])) {
    return { anyOf: (schema['anyOf'] as Json[]).map((s) => closed(s, bodies)) };
  }
  const [ref, constraint] = (schema['allOf'] as Json[] | undefined) ?? [];
  const target$ref = ref?.['$ref'];
  const name =
    typeof target$ref === 'string' ? target$ref.replace('#/components/schemas/', '') : '';
  const body = bodies[name] as Json | undefined;
  if (!body) return schema;
  const copy = structuredClone(body);
  const props = (s: Json | undefined) => (s?.['properties'] ?? {}) as Record<string, Json>;
  const items = (s: Json | undefined) => props(s)['errors']?.['items'] as Json | undefined;
  const enumOf = props(items(constraint))['code'] ?? props(constraint)['code'];
  const target = items(copy) ?? copy;
  if (enumOf && props(target)['code']) {
    props(target)['code'] = { ...props(target)['code'], type: 'string', enum: enumOf['enum'] };
  }
  return copy;
}

/** An answer with the first documented code, in the shape of its body. */
function exampleOf(status: number, first: DocumentedErrorCode, detail: string): Json {
  if (first.body !== 'ErrorDocument') {
    return { message: detail, error: first.title, code: first.code };
  }
  return {
    errors: [
      {
        status: String(status),
        code: first.code,
        title: first.title,
        detail,
        meta: { requestId: 'req-3f2a9c' },
      },
    ],
  };
}

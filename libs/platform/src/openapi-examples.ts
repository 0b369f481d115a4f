import { STATUS_DEFAULTS } from '@wp/http';
import { sample } from 'openapi-sampler';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * Gives every JSON request and response body of an OpenAPI 3.1 document an `example` where it
 * has none: success and request bodies are sampled from their schema by `openapi-sampler`
 * (Redocly's sampler, the one Redoc uses: `sample(schema, options, document)` resolves `$ref`s
 * against the document; enums, formats, defaults and bounds are honoured); JSON:API error
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
      if (body) exampleFor(body, document, { skipReadOnly: true });
      const responses = (operation['responses'] ?? {}) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        const error = errorExample(Number(status), response, errorBodyName);
        exampleFor(response, document, { skipWriteOnly: true }, error);
      }
    }
  }
}

function exampleFor(
  holder: Json,
  document: Json,
  options: { skipReadOnly?: boolean; skipWriteOnly?: boolean },
  fixed?: unknown,
): void {
  const media = (holder['content'] as Record<string, Json> | undefined)?.['application/json'];
  if (!media || media['example'] !== undefined || media['examples'] !== undefined) return;
  const schema = media['schema'] as Json | undefined;
  if (!schema || Object.keys(schema).length === 0) return;
  try {
    media['example'] = fixed ?? sample(schema, { ...options, quiet: true }, document);
  } catch {
    // A schema the sampler cannot walk keeps no example rather than a wrong one.
  }
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

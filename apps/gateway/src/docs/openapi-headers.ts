type Json = Record<string, unknown>;

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The answer headers of the API (docs/api-documentation.md § Headers), declared once under
 * `components.headers`: what the services and the gateway set (libs/http fastify-app: the
 * request id; the error filters and the gateway: `Retry-After`; @fastify/rate-limit at the
 * gateway: the rate-limit headers; the wallet service: `Idempotent-Replayed`).
 */
export const ANSWER_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      "The request's id: the caller's well-formed `X-Request-Id`, else one the platform made. " +
      'Quote it when reporting a problem; error bodies carry it too (`meta.requestId`).',
    required: true,
    schema: { type: 'string', example: 'req-3f2a9c' },
  },
  'Retry-After': {
    description:
      'Seconds to wait before trying again (a rate limit, a dependency that is down, a ' +
      'service that is shutting down or cannot be reached).',
    schema: { type: 'integer', minimum: 0, example: 5 },
  },
  'X-RateLimit-Limit': {
    description:
      "Requests allowed per minute from the caller's address, when the deployment limits them.",
    schema: { type: 'integer', minimum: 0, example: 600 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute, when the deployment limits them.',
    schema: { type: 'integer', minimum: 0, example: 599 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current minute ends, when the deployment limits them.',
    schema: { type: 'integer', minimum: 0, example: 42 },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when the answer repeats the outcome of an earlier request with the ' +
      'same `Idempotency-Key`: nothing was done again.',
    schema: { type: 'string', enum: ['true'], example: 'true' },
  },
};

/** Request header parameters declared once under `components.parameters`, by header name. */
const SHARED_PARAMETERS: Record<string, string> = { 'Idempotency-Key': 'IdempotencyKey' };

/**
 * Adds the answer headers to every answer of `document` as `$ref`s to
 * {@link ANSWER_HEADERS}: `X-Request-Id` and the rate-limit headers on all, `Retry-After` on 429
 * and 503, `Idempotent-Replayed` on the success answers of operations that take an
 * `Idempotency-Key`. Request headers that several operations could share (`Idempotency-Key`,
 * declared by the route with `@ApiHeader`) move to `components.parameters` and are referred
 * to. Mutates `document`.
 */
export function addHeaders(document: Json): void {
  const components = (document['components'] ??= {}) as Json;
  components['headers'] = ANSWER_HEADERS;
  const parameters = (components['parameters'] as Json | undefined) ?? {};
  for (const item of Object.values((document['paths'] ?? {}) as Record<string, Json>)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      let idempotent = false;
      if (Array.isArray(operation['parameters'])) {
        operation['parameters'] = (operation['parameters'] as Json[]).map((parameter) => {
          const name = SHARED_PARAMETERS[String(parameter['name'])];
          if (parameter['in'] !== 'header' || !name) return parameter;
          idempotent ||= name === 'IdempotencyKey';
          parameters[name] ??= parameter;
          return { $ref: `#/components/parameters/${name}` };
        });
      }
      const responses = (operation['responses'] ?? {}) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        const headers: Json = { 'X-Request-Id': ref('X-Request-Id') };
        if (status === '429' || status === '503') headers['Retry-After'] = ref('Retry-After');
        for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
          headers[name] = ref(name);
        }
        if (idempotent && status.startsWith('2')) {
          headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
        }
        response['headers'] = { ...(response['headers'] ?? {}), ...headers };
      }
    }
  }
  if (Object.keys(parameters).length > 0) components['parameters'] = parameters;
}

import { HEADERS } from '@wp/contracts';
import { errorDocument, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '@wp/http';
import type { ApiKeyRegistry } from '@wp/security';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ProxyRoute } from './routes.js';

/** The gateway's Api-Key refusals (403, JSON:API), documented on every route that checks a key. */
export const API_KEY_REFUSALS = {
  missing: { code: 'API_KEY_MISSING', detail: 'The Api-Key header is required.' },
  invalid: { code: 'API_KEY_INVALID', detail: 'The Api-Key is not valid.' },
} as const;

/**
 * The proxy routes' pre-checks, in this order, as one `preHandler` hook:
 * - the body limit: a body announced larger than `bodyLimit` bytes is 413 before it is
 *   forwarded (proxied bodies are streamed, not parsed, so Fastify's own limit does not apply;
 *   services enforce theirs on chunked bodies);
 * - the Api-Key (docs/architecture.md § Shape): requests without a valid key are refused (403)
 *   before they cost an upstream hop. Services check again (defence in depth); both read the
 *   same Redis registry through a short local cache. A registry that cannot answer (Redis down,
 *   or emptied and not rebuilt yet) is a 503 with `Retry-After` at once (docs/operations.md
 *   § Without Redis).
 * A callback hook, synchronous whenever the key is in the registry's positive cache (nearly
 * every request): no promise or microtask per request. A refusal is answered here and the hook
 * never calls `done`, which is how a Fastify callback hook ends the request.
 */
export function edgePrecheck(
  registry: ApiKeyRegistry,
  mode: ProxyRoute['apiKey'],
  bodyLimit: number,
) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > bodyLimit) {
      void reply
        .status(413)
        .send(errorDocument(413, `The request body exceeds ${bodyLimit} bytes.`));
      return;
    }
    if (mode === 'none' || request.method === 'OPTIONS') return done();
    const header = request.headers[HEADERS.apiKey];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) {
      if (mode === 'optional') return done();
      void reply.status(403).send(forbidden(API_KEY_REFUSALS.missing));
      return;
    }
    if (registry.cached(key) !== undefined) return done();
    registry.resolve(key).then(
      (appId) => {
        if (appId !== null) return done();
        void reply.status(403).send(forbidden(API_KEY_REFUSALS.invalid));
      },
      () => {
        void reply
          .status(503)
          .header('Retry-After', String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS))
          .send(
            errorDocument(
              503,
              'The application key could not be checked. Retry shortly.',
              'UNAVAILABLE',
            ),
          );
      },
    );
  };
}

function forbidden({ code, detail }: { code: string; detail: string }) {
  const doc = errorDocument(403, detail, code);
  doc.errors[0].source = { header: 'Api-Key' };
  return doc;
}

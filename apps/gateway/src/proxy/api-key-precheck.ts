import { HEADERS } from '@wp/contracts';
import { errorDocument, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '@wp/http';
import type { ApiKeyRegistry } from '@wp/security';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyRoute } from './routes.js';

/** The gateway's Api-Key refusals (403, JSON:API), documented on every route that checks a key. */
export const API_KEY_REFUSALS = {
  missing: { code: 'API_KEY_MISSING', detail: 'The Api-Key header is required.' },
  invalid: { code: 'API_KEY_INVALID', detail: 'The Api-Key is not valid.' },
} as const;

/**
 * The gateway's Api-Key pre-check (docs/architecture.md § Shape): refuses requests without a valid
 * key before they cost an upstream hop. Services check again (defence in depth); both read the same
 * Redis registry through a short local cache. A registry that cannot answer (Redis down, or
 * emptied and not rebuilt yet) is a 503 with `Retry-After` at once (docs/operations.md § Without
 * Redis).
 */
export function apiKeyPrecheck(registry: ApiKeyRegistry, mode: ProxyRoute['apiKey']) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (mode === 'none' || request.method === 'OPTIONS') return;
    const header = request.headers[HEADERS.apiKey];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) {
      if (mode === 'optional') return;
      await reply.status(403).send(forbidden(API_KEY_REFUSALS.missing));
      return;
    }
    let appId: string | null;
    try {
      appId = await registry.resolve(key);
    } catch {
      await reply
        .status(503)
        .header('Retry-After', String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send(
          errorDocument(
            503,
            'The application key could not be checked. Retry shortly.',
            'UNAVAILABLE',
          ),
        );
      return;
    }
    if (appId === null) {
      await reply.status(403).send(forbidden(API_KEY_REFUSALS.invalid));
    }
  };
}

function forbidden({ code, detail }: { code: string; detail: string }) {
  const doc = errorDocument(403, detail, code);
  doc.errors[0].source = { header: 'Api-Key' };
  return doc;
}

/**
 * Refuses a body announced larger than `limit` bytes with 413 before it is forwarded (proxied
 * bodies are streamed, not parsed, so Fastify's own limit does not apply; services enforce
 * theirs on chunked bodies).
 */
export function bodyLimitPrecheck(limit: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > limit) {
      await reply.status(413).send(errorDocument(413, `The request body exceeds ${limit} bytes.`));
    }
  };
}

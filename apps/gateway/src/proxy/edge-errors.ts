import { DomainError, errorDocument } from '@wp/http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Fastify error codes of the proxy routes with the detail the client reads. */
const DETAILS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The Content-Type of the body is not supported.',
};

/**
 * The error handler of the gateway's proxy routes (docs/decisions.md § Wire format, "One error
 * format per process"): what the gateway raises itself before a request is forwarded, or
 * instead of forwarding it, is answered in the JSON:API error body, never in Fastify's
 * `{"statusCode","error","message"}`:
 * - a `DomainError` (the rate limit's 429) with its items and `Retry-After`;
 * - @fastify/http-proxy refusing a destination that leaves its route (`..` segments, encoded
 *   or not, an absolute URL, `//`): 400 `BAD_REQUEST`;
 * - any other 4xx of Fastify or a plugin with its status; anything else 500 `INTERNAL`, logged
 *   with the request id, without internals in the body.
 * @see https://fastify.dev/docs/latest/Reference/Server/#seterrorhandler
 */
export function edgeErrorHandler(
  error: FastifyError | DomainError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.header('content-type', 'application/json; charset=utf-8');
  if (error instanceof DomainError) {
    if (error.retryAfter !== undefined) void reply.header('retry-after', String(error.retryAfter));
    void reply.status(error.status).send({ errors: error.toItems() });
    return;
  }
  const status = error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const detail =
      DETAILS[error.code] ??
      (error.message === 'source/request contain invalid characters'
        ? 'The request path leaves its route (dot segments or an absolute URL).'
        : error.message);
    void reply.status(status).send(errorDocument(status, detail));
    return;
  }
  request.log.error({ err: error, requestId: request.id }, 'gateway error');
  const body = errorDocument(500, 'An unexpected error occurred.', 'INTERNAL');
  body.errors[0].meta = { requestId: String(request.id) };
  void reply.status(500).send(body);
}

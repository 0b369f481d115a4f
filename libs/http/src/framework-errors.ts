import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorDocument } from './errors/json-api-error.filter.js';

/** `Retry-After` of the 503 answered while a process shuts down, seconds. */
export const CLOSING_RETRY_AFTER_SECONDS = 1;

/**
 * The error body of a process for a status, a human-readable detail and, when the status alone
 * does not say it, a code. Default {@link jsonApiErrorBody}; a service whose callers expect
 * another shape (analytics: Langfuse's) passes its own, so each process answers in one format.
 */
export type ErrorBodyFormat = (status: number, detail: string, code?: string) => unknown;

/**
 * Headers of every answer of a process (docs/operations.md § Response headers):
 * `X-Content-Type-Options: nosniff`, and `Strict-Transport-Security` when configured.
 */
export function securityHeaders(strictTransportSecurity?: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (strictTransportSecurity) headers['strict-transport-security'] = strictTransportSecurity;
  return headers;
}

/** The JSON:API error body (docs/decisions.md § Wire format), via {@link errorDocument}. */
export const jsonApiErrorBody: ErrorBodyFormat = (status, detail, code) =>
  errorDocument(status, detail, code);

/**
 * Fastify's `frameworkErrors` option: the errors its router raises before any route or hook
 * runs — a path that does not percent-decode (`FST_ERR_BAD_URL`, 400), a path parameter longer
 * than `maxParamLength` (`FST_ERR_MAX_PARAM_LENGTH`, 414), a failing route constraint (500) — answered with the process's error
 * body instead of Fastify's `{"error","statusCode"}`.
 * @see https://fastify.dev/docs/latest/Reference/Server/#frameworkerrors
 */
export const frameworkErrorHandler =
  (format: ErrorBodyFormat, headers: Record<string, string> = securityHeaders()) =>
  (
    error: Error & { statusCode?: number; code?: string },
    _request: FastifyRequest,
    reply: FastifyReply,
  ): void => {
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600
        ? error.statusCode
        : 400;
    const detail =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path segment is too long.'
        : error.code === 'FST_ERR_BAD_URL'
          ? 'The request path is not a valid URL.'
          : 'The request could not be routed.';
    void reply
      .status(status)
      .headers(headers)
      .header('content-type', 'application/json; charset=utf-8')
      .send(format(status, detail));
  };

/**
 * Fastify's `clientErrorHandler` option: what Node's HTTP parser refuses before there is a
 * request (malformed request line, headers over the size limit, header timeout) is answered on
 * the raw socket with the process's error body, then the connection is closed — the same rule
 * as Fastify's default handler (nothing is written to a socket that is gone), another body.
 * @see https://nodejs.org/api/http.html#event-clienterror
 */
export const clientErrorHandler =
  (format: ErrorBodyFormat, headers: Record<string, string> = securityHeaders()) =>
  (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 431
          : 400;
    const detail =
      status === 408
        ? 'The request did not arrive in time.'
        : status === 431
          ? 'The request headers are too large.'
          : 'The request is not valid HTTP.';
    const body = JSON.stringify(
      format(status, detail, status === 431 ? 'HEADERS_TOO_LARGE' : undefined),
    );
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\n` +
          Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('') +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };

/**
 * Answers every request that arrives once the process has begun to shut down with 503
 * (`UNAVAILABLE`), `Retry-After` and `Connection: close`, in the process's error body, before any
 * route runs (the service's connections are being closed; another replica will answer). It
 * replaces Fastify's `return503OnClosing` answer (`{"error":"Service Unavailable",…}`), which
 * only starts once Nest has already run its destroy hooks. Returns `markClosing`, to call when
 * shutting down begins; Fastify's own close also marks it. Answers still being produced then
 * (requests in flight) carry `Connection: close` too, so the server can close once they are sent.
 */
export function installClosingGuard(
  fastify: FastifyInstance,
  format: ErrorBodyFormat = jsonApiErrorBody,
): () => void {
  let closing = false;
  const markClosing = () => {
    closing = true;
  };
  fastify.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    void reply
      .status(503)
      .header('retry-after', String(CLOSING_RETRY_AFTER_SECONDS))
      .header('connection', 'close')
      .header('content-type', 'application/json; charset=utf-8')
      .send(format(503, 'The service is shutting down; retry shortly.'));
  });
  // Requests in flight when shutting down began finish normally, but their keep-alive
  // connections must not outlive them: Node's server.close() waits for every open connection.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('preClose', (done) => {
    markClosing();
    done();
  });
  return markClosing;
}

import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  notifyDatabaseUnavailable,
} from './database-unavailable.js';
import { withoutQuery } from '../redact-url.js';
import { DomainError, type ErrorItem } from './domain-error.js';
import { isStoreUnavailable, storeUnavailable } from './store-unavailable.js';
import {
  isTransactionConflict,
  TRANSACTION_CONFLICT_RETRY_AFTER_SECONDS,
} from './transaction-conflict.js';

/** The code and title of an error with no code of its own, by HTTP status. */
export const STATUS_DEFAULTS: Record<number, { code: string; title: string }> = {
  400: { code: 'BAD_REQUEST', title: 'Bad request' },
  401: { code: 'UNAUTHENTICATED', title: 'Unauthenticated' },
  403: { code: 'FORBIDDEN', title: 'Forbidden' },
  404: { code: 'NOT_FOUND', title: 'Not found' },
  405: { code: 'METHOD_NOT_ALLOWED', title: 'Method not allowed' },
  406: { code: 'NOT_ACCEPTABLE', title: 'Not acceptable' },
  408: { code: 'REQUEST_TIMEOUT', title: 'Request timeout' },
  409: { code: 'CONFLICT', title: 'Conflict' },
  413: { code: 'PAYLOAD_TOO_LARGE', title: 'Payload too large' },
  414: { code: 'URI_TOO_LONG', title: 'URI too long' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported media type' },
  422: { code: 'UNPROCESSABLE', title: 'Unprocessable request' },
  429: { code: 'RATE_LIMITED', title: 'Too many requests' },
  431: { code: 'HEADERS_TOO_LARGE', title: 'Request header fields too large' },
  502: { code: 'BAD_GATEWAY', title: 'Bad gateway' },
  503: { code: 'UNAVAILABLE', title: 'Service unavailable' },
  504: { code: 'GATEWAY_TIMEOUT', title: 'Gateway timeout' },
};

/** The JSON:API error document: `{"errors":[{status, code, title, detail?, source?, meta?}]}`. */
export interface ErrorDocument {
  errors: ErrorItem[];
  meta?: Record<string, unknown>;
}

/**
 * Builds the error body for a status with our standard code/title. Used by the filter and by
 * the gateway for its own 4xx/5xx answers.
 */
export function errorDocument(status: number, detail?: string, code?: string): ErrorDocument {
  const known = STATUS_DEFAULTS[status] ?? {
    code: status >= 500 ? 'INTERNAL' : 'ERROR',
    title: 'Error',
  };
  const item: ErrorItem = { status: String(status), code: code ?? known.code, title: known.title };
  if (detail) item.detail = detail;
  return { errors: [item] };
}

/**
 * Maps anything thrown during a request to the JSON:API error body of
 * docs/architecture.md § Decisions where the contract is silent: DomainError → its category's
 * status; Nest/Fastify HTTP errors (unknown route, malformed JSON, body too large, wrong content
 * type) → their 4xx; PostgreSQL unreachable (restart, shutdown, failover, refused or timed-out
 * connection; database-unavailable.ts) → 503 `UNAVAILABLE` with `Retry-After`, logged as a warning
 * and counted (docs/architecture.md § Errors); a deadlock or serialization failure that outlived
 * its retries (transaction-conflict.ts) → 503 `UNAVAILABLE` with `Retry-After`; a Redis command
 * that could not be answered and that no caller turned into a 503 itself (`isStoreUnavailable`)
 * → 503 `UNAVAILABLE` with `Retry-After: 1`; anything else → 500 with the request id and no
 * internals, logged once with its stack.
 */
@Catch()
export class JsonApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, retryAfter, databaseUnavailable } = this.describe(
      exception,
      String(request.id),
    );
    if (databaseUnavailable === true) notifyDatabaseUnavailable(request.server, exception);
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private describe(
    exception: unknown,
    requestId: string,
  ): { status: number; body: ErrorDocument; retryAfter?: number; databaseUnavailable?: boolean } {
    if (exception instanceof DomainError) {
      const body: ErrorDocument = { errors: exception.toItems() };
      if (exception.documentMeta !== undefined) body.meta = exception.documentMeta;
      return { status: exception.status, body, retryAfter: exception.retryAfter };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) return { status, body: errorDocument(status, httpDetail(exception)) };
    }
    const fastifyStatus = fastifyClientError(exception);
    if (fastifyStatus !== undefined) {
      return {
        status: fastifyStatus,
        body: errorDocument(fastifyStatus, (exception as Error).message),
      };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(
        { err: exception, requestId },
        `Database unavailable: ${exception instanceof Error ? exception.message : 'unknown'}`,
      );
      const body = errorDocument(
        503,
        'The service cannot reach its database right now. Retry shortly.',
        'UNAVAILABLE',
      );
      body.errors[0].meta = { requestId };
      const retryAfter = DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS;
      return { status: 503, body, retryAfter, databaseUnavailable: true };
    }
    if (isTransactionConflict(exception)) {
      // Still a deadlock or serialization failure after the retries of @wp/persistence.
      this.logger.warn(
        { err: exception, requestId },
        `Transaction conflict after retries: ${(exception as Error).message}`,
      );
      const body = errorDocument(
        503,
        'The request kept conflicting with concurrent requests and was rolled back. Retry shortly.',
        'UNAVAILABLE',
      );
      body.errors[0].meta = { requestId };
      return { status: 503, body, retryAfter: TRANSACTION_CONFLICT_RETRY_AFTER_SECONDS };
    }
    if (isStoreUnavailable(exception)) {
      this.logger.warn(
        { err: exception, requestId },
        `Store unavailable: ${(exception as Error).message}`,
      );
      const error = storeUnavailable('The request could not be completed');
      const body: ErrorDocument = { errors: error.toItems() };
      body.errors[0].meta = { requestId };
      return { status: 503, body, retryAfter: error.retryAfter };
    }
    this.logger.error(
      { err: exception, requestId },
      exception instanceof Error ? exception.message : 'Unexpected error',
    );
    const body = errorDocument(500, 'An unexpected error occurred.', 'INTERNAL');
    body.errors[0].meta = { requestId };
    return { status: 500, body };
  }
}

/** The text of a Nest HTTP error; an unknown route's without its query string (redact-url.ts). */
function httpDetail(exception: HttpException): string | undefined {
  const response = exception.getResponse();
  if (typeof response === 'string') return withoutQuery(response);
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return withoutQuery(message);
  if (Array.isArray(message)) return message.join('; ');
  return exception.message;
}

/**
 * Fastify's own errors (FST_ERR_CTP_INVALID_JSON, FST_ERR_CTP_BODY_TOO_LARGE, …) carry a 4xx
 * statusCode: that status, 400 for a content-type parser's error without one, else undefined.
 * Also what analytics' Langfuse filter reads them with.
 */
export function fastifyClientError(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { statusCode, code } = exception as { statusCode?: unknown; code?: unknown };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return statusCode;
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP')) return 400;
  return undefined;
}

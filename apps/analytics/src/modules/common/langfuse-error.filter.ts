import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import {
  DomainError,
  fastifyClientError,
  isStoreUnavailable,
  storeUnavailable,
  withoutQuery,
} from '@wp/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describeStatus, LangfuseApiError, type LangfuseErrorBody } from './langfuse-errors.js';

/**
 * The analytics service's exception filter (docs/analytics.md § Errors): every error answer of
 * this service is in Langfuse's shape `{message, error, code}`, not JSON:API, because Langfuse
 * clients are its callers. Registered after the platform's filter, so it takes precedence.
 * A Redis command that could not be answered is 503 with `Retry-After` like everywhere
 * (docs/operations.md § Without Redis). Unknown errors are 500, logged once with the request id,
 * without internals in the body.
 */
@Catch()
export class LangfuseErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('LangfuseErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (isStoreUnavailable(exception))
      exception = storeUnavailable('The request could not be completed');
    const { status, body } = this.describe(exception, String(request.id));
    if (exception instanceof DomainError && exception.retryAfter !== undefined) {
      void reply.header('Retry-After', String(exception.retryAfter));
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private describe(
    exception: unknown,
    requestId: string,
  ): { status: number; body: LangfuseErrorBody } {
    if (exception instanceof LangfuseApiError) {
      return { status: exception.status, body: exception.body() };
    }
    if (exception instanceof DomainError) {
      const { errorName, code } = describeStatus(exception.status);
      return {
        status: exception.status,
        body: { message: exception.detail ?? exception.title, error: errorName, code },
      };
    }
    const status = clientStatus(exception);
    if (status !== undefined) {
      const { errorName, code } = describeStatus(status);
      // An unknown route's text names the route, not the query (docs/operations.md § Logs and traces).
      const message = withoutQuery((exception as Error).message);
      return { status, body: { message, error: errorName, code } };
    }
    this.logger.error(
      { err: exception, requestId },
      exception instanceof Error ? exception.message : 'Unexpected error',
    );
    return {
      status: 500,
      body: {
        message: 'Internal Server Error',
        error: `An unexpected error occurred (request ${requestId}).`,
        code: 'internal_error',
      },
    };
  }
}

/** 4xx of Nest (unknown route) and Fastify (bad JSON, body too large, unsupported type). */
function clientStatus(exception: unknown): number | undefined {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return status < 500 ? status : undefined;
  }
  return fastifyClientError(exception);
}

/**
 * Errors of the analytics API in Langfuse's shape (docs/analytics.md § Errors). Langfuse's
 * public API answers `{"message": "...", "error": "<ErrorName>"}` (web/…/withMiddlewares);
 * newer Langfuse clients (`@langfuse/core` PublicApiError) read `message` and `code`, so every
 * answer carries all three. Validation failures put the issues in `error`, as Langfuse does.
 */
export type LangfuseErrorCode =
  | 'invalid_request'
  | 'invalid_query'
  | 'invalid_body'
  | 'authentication_failed'
  | 'access_denied'
  | 'resource_not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error';

export interface LangfuseErrorBody {
  message: string;
  error: unknown;
  code: LangfuseErrorCode;
}

/** A validation issue (`{code, message, path}`, the shape of a zod issue). */
export interface LangfuseIssue {
  code: string;
  message: string;
  path: (string | number)[];
}

export class LangfuseApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName: string,
    readonly code: LangfuseErrorCode,
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'LangfuseApiError';
  }

  body(): LangfuseErrorBody {
    return { message: this.message, error: this.detail ?? this.errorName, code: this.code };
  }

  /** 401: missing, malformed, unknown, expired or deleted key pair. */
  static unauthorized(message: string): LangfuseApiError {
    return new LangfuseApiError(401, message, 'UnauthorizedError', 'authentication_failed');
  }

  /** 404: unknown resource, or one of another project (never 403: no existence leak). */
  static notFound(message: string): LangfuseApiError {
    return new LangfuseApiError(404, message, 'LangfuseNotFoundError', 'resource_not_found');
  }

  /** 400 for bad query parameters or bodies, with the issues found. */
  static invalid(
    issues: LangfuseIssue[],
    code: 'invalid_query' | 'invalid_body' = 'invalid_query',
  ): LangfuseApiError {
    return new LangfuseApiError(400, 'Invalid request data', 'InvalidRequestError', code, issues);
  }

  static tooLarge(message: string): LangfuseApiError {
    return new LangfuseApiError(413, message, 'PayloadTooLargeError', 'payload_too_large');
  }
}

/** Langfuse's error name and our code for an HTTP status raised outside our own code. */
export function describeStatus(status: number): { errorName: string; code: LangfuseErrorCode } {
  switch (status) {
    case 400:
      return { errorName: 'InvalidRequestError', code: 'invalid_request' };
    case 401:
      return { errorName: 'UnauthorizedError', code: 'authentication_failed' };
    case 403:
      return { errorName: 'ForbiddenError', code: 'access_denied' };
    case 404:
      return { errorName: 'LangfuseNotFoundError', code: 'resource_not_found' };
    case 405:
      return { errorName: 'MethodNotAllowedError', code: 'method_not_allowed' };
    case 413:
      return { errorName: 'PayloadTooLargeError', code: 'payload_too_large' };
    case 429:
      return { errorName: 'TooManyRequestsError', code: 'rate_limited' };
    case 503:
      return { errorName: 'ServiceUnavailableError', code: 'service_unavailable' };
    default:
      return status >= 500
        ? { errorName: 'InternalServerError', code: 'internal_error' }
        : { errorName: 'InvalidRequestError', code: 'invalid_request' };
  }
}

/**
 * Langfuse's error body for a status and message: the `errorBody` of the analytics app, used
 * for the answers given outside the exception filter (router and HTTP parser refusals, the 503
 * while shutting down), so every answer of the service keeps this shape.
 */
export function langfuseErrorBody(status: number, message: string): LangfuseErrorBody {
  const { errorName, code } = describeStatus(status);
  return { message, error: errorName, code };
}

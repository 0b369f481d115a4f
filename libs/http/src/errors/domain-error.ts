/**
 * Error categories and the HTTP status each maps to (docs/architecture.md § Error body):
 * invalid 400, unauthenticated 401, forbidden 403, not_found 404, conflict 409,
 * too_large 413, rule 422, rate_limited 429, unavailable 503.
 */
export const ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rule: 422,
  rate_limited: 429,
  unavailable: 503,
} as const;
export type ErrorCategory = keyof typeof ERROR_STATUS;

/** Where in the request an error points: a JSON pointer into the body, or a query/path parameter. */
export interface ErrorSource {
  pointer?: string;
  parameter?: string;
  header?: string;
}

/** One entry of a JSON:API `errors` array. */
export interface ErrorItem {
  status: string;
  code: string;
  title: string;
  detail?: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
}

export interface DomainErrorOptions {
  detail?: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
  /** Seconds; written as a `Retry-After` header (rate limits). */
  retryAfter?: number;
  /** Further items of the same answer (e.g. one per invalid field). */
  items?: ErrorItem[];
  /**
   * Top-level `meta` of the error document, beside `errors` (e.g. `redirect_to_add_member`,
   * which clients look for both in `errors[0]` and in `meta`).
   */
  documentMeta?: Record<string, unknown>;
}

/**
 * The one base class for errors services throw (docs/architecture.md § Errors). Services never
 * throw `HttpException`; the exception filter turns a DomainError into the JSON:API error body.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly detail?: string;
  readonly source?: ErrorSource;
  readonly meta?: Record<string, unknown>;
  readonly retryAfter?: number;
  readonly extraItems: ErrorItem[];
  readonly documentMeta?: Record<string, unknown>;

  constructor(
    readonly category: ErrorCategory,
    readonly code: string,
    readonly title: string,
    options: DomainErrorOptions = {},
  ) {
    super(options.detail ?? title);
    this.name = new.target.name;
    this.status = ERROR_STATUS[category];
    this.detail = options.detail;
    this.source = options.source;
    this.meta = options.meta;
    this.retryAfter = options.retryAfter;
    this.extraItems = options.items ?? [];
    this.documentMeta = options.documentMeta;
  }

  /** The `errors` array of the response body. */
  toItems(): ErrorItem[] {
    const first: ErrorItem = { status: String(this.status), code: this.code, title: this.title };
    if (this.detail !== undefined) first.detail = this.detail;
    if (this.source !== undefined) first.source = this.source;
    if (this.meta !== undefined) first.meta = this.meta;
    return [first, ...this.extraItems];
  }
}

/** 404 for unknown resources and for resources of a tenant the caller does not belong to. */
export class NotFoundError extends DomainError {
  constructor(what: string, detail?: string) {
    super('not_found', 'NOT_FOUND', `${what} not found`, { detail });
  }
}

/** 403 for a member without the permission (never for foreign tenants: those get 404). */
export class ForbiddenError extends DomainError {
  constructor(detail = 'You do not have permission to perform this action.', code = 'FORBIDDEN') {
    super('forbidden', code, 'Forbidden', { detail });
  }
}

/** 401 for a missing, malformed, expired or revoked credential. */
export class UnauthenticatedError extends DomainError {
  constructor(detail = 'A valid access token is required.', code = 'UNAUTHENTICATED') {
    super('unauthenticated', code, 'Unauthenticated', { detail });
  }
}

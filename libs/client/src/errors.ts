import type { AnyErrorCode, ErrorCodeOf, OperationKey } from './operations.js';
import { retryAfterSeconds } from './retry-after.js';

/**
 * Codes the SDK itself gives: `INVALID_RESPONSE` (an answer the contract says to reject, e.g. an
 * organization answer for another id), `NETWORK_ERROR` (no answer at all: connection refused or
 * reset, DNS; `status` 0), `UNDOCUMENTED_ERROR` (an error answer without a code, e.g. an HTML
 * page from a proxy in front of the platform).
 */
export type SdkErrorCode = 'INVALID_RESPONSE' | 'NETWORK_ERROR' | 'UNDOCUMENTED_ERROR';

/** One JSON:API error object (docs/architecture.md § Decisions where the contract is silent). */
export interface ErrorObject {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

export interface PlatformApiErrorInit<C extends string> {
  status: number;
  code: C | SdkErrorCode;
  title: string;
  detail?: string;
  requestId?: string;
  operation?: string;
  retryAfter?: number;
  errors?: readonly ErrorObject[];
  body?: unknown;
  cause?: unknown;
}

const BRAND = Symbol.for('@workspace-platform/client.PlatformApiError');

/**
 * The one error of the SDK: every call (the helpers, `sdk.api.*`, `analytics.*`) resolves with
 * its answer or rejects with a `PlatformApiError` (README of the package, "Errors").
 *
 * - `status`: the HTTP status (0: no answer reached the SDK).
 * - `code`: the machine-readable code, `C` being the codes the OpenAPI document lists for the
 *   operation (docs/api-documentation.md § Error codes per operation) — JSON:API
 *   `errors[0].code`, or the analytics API's `code` — or one of {@link SdkErrorCode}.
 * - `title` / `detail`: the short and the specific human-readable explanation.
 * - `requestId`: `X-Request-Id` of the answer, to quote to support.
 * - `operation`: which operation failed (`"POST /v1/api/wallets/transact"`).
 * - `retryAfter`: seconds from `Retry-After` (429, 503), after the SDK's own retries gave up.
 * - `errors`: every JSON:API error object (validation answers name each field in `source`).
 *
 * Narrow to one operation's codes with {@link isPlatformApiError}.
 */
export class PlatformApiError<C extends string = AnyErrorCode> extends Error {
  readonly [BRAND] = true;
  readonly status: number;
  readonly code: C | SdkErrorCode;
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  /** The {@link OperationKey} of the failed request, e.g. `"POST /v1/api/wallets/transact"`. */
  readonly operation: string | undefined;
  readonly retryAfter: number | undefined;
  readonly errors: readonly ErrorObject[];
  readonly body: unknown;

  constructor(init: PlatformApiErrorInit<C>) {
    super(
      `${init.status} ${init.code}: ${init.detail ?? init.title}${init.operation ? ` (${init.operation})` : ''}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = 'PlatformApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.operation = init.operation;
    this.retryAfter = init.retryAfter;
    this.errors = init.errors ?? [];
    this.body = init.body;
  }
}

/**
 * True when `error` is a {@link PlatformApiError} (also one made by another copy of the SDK,
 * e.g. its CommonJS build beside its ES module build); with `operation`, only when that
 * operation failed, and then `code` is typed as that operation's codes:
 * `isPlatformApiError(e, 'POST /v1/api/wallets/transact') && e.code === 'INSUFFICIENT_FUNDS'`.
 */
export function isPlatformApiError(error: unknown): error is PlatformApiError;
export function isPlatformApiError<K extends OperationKey>(
  error: unknown,
  operation: K,
): error is PlatformApiError<ErrorCodeOf<K>>;
export function isPlatformApiError(error: unknown, operation?: string): boolean {
  if (typeof error !== 'object' || error === null || !(BRAND in error)) return false;
  return operation === undefined || ('operation' in error && error.operation === operation);
}

/** An answer the contract says the client must reject (e.g. a different organization id). */
export function invalidResponse(
  detail: string,
  context: { operation?: string; requestId?: string; status?: number } = {},
): PlatformApiError<never> {
  return new PlatformApiError<never>({
    status: context.status ?? 0,
    code: 'INVALID_RESPONSE',
    title: 'Invalid response',
    detail,
    requestId: context.requestId,
    operation: context.operation,
  });
}

/** No answer reached the SDK (`fetch` rejected): status 0, `NETWORK_ERROR`, the cause kept. */
export function networkError(cause: unknown, operation?: string): PlatformApiError<never> {
  return new PlatformApiError<never>({
    status: 0,
    code: 'NETWORK_ERROR',
    title: 'Network error',
    detail: cause instanceof Error ? cause.message : String(cause),
    operation,
    cause,
  });
}

/**
 * The error of a refused answer (any status but 2xx and 304) of `operation`, read from its body:
 * the JSON:API error document (`errors[0]`: `code`, `title`, `detail`; `meta.requestId`) or the
 * analytics API's Langfuse shape (`code`, `message`, `error`). The code is the platform's; the
 * document lists each operation's codes, and the contract test holds the platform to them
 * (docs/api-documentation.md § Contract test), hence the operation's code type.
 */
export function errorFromAnswer<K extends OperationKey>(
  response: Response,
  body: unknown,
  operation: K,
): PlatformApiError<ErrorCodeOf<K>>;
export function errorFromAnswer(
  response: Response,
  body: unknown,
  operation?: string,
): PlatformApiError<string>;
export function errorFromAnswer(
  response: Response,
  body: unknown,
  operation?: string,
): PlatformApiError<string> {
  const errors = errorObjects(body);
  const first = errors[0];
  const flat = isRecord(body) ? body : {};
  const code = first?.code ?? stringOf(flat['code']) ?? 'UNDOCUMENTED_ERROR';
  const title =
    first?.title ?? stringOf(flat['error']) ?? (response.statusText || `HTTP ${response.status}`);
  const meta = isRecord(flat['meta']) ? flat['meta'] : {};
  return new PlatformApiError<string>({
    status: response.status,
    code,
    title,
    detail: first?.detail ?? stringOf(flat['message']),
    requestId:
      response.headers.get('x-request-id') ??
      stringOf(first?.meta?.['requestId']) ??
      stringOf(meta['requestId']),
    operation,
    retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
    errors,
    body,
  });
}

function errorObjects(body: unknown): ErrorObject[] {
  if (!isRecord(body) || !Array.isArray(body['errors'])) return [];
  return body['errors'].filter(isRecord).map((e) => ({
    status: stringOf(e['status']),
    code: stringOf(e['code']),
    title: stringOf(e['title']),
    detail: stringOf(e['detail']),
    source: isRecord(e['source'])
      ? {
          pointer: stringOf(e['source']['pointer']),
          parameter: stringOf(e['source']['parameter']),
          header: stringOf(e['source']['header']),
        }
      : undefined,
    meta: isRecord(e['meta']) ? e['meta'] : undefined,
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

import { backoffDelay } from '@wp/http';
/** `Retry-After` of the gateway's 503 when a service cannot be reached, seconds. */
export const UPSTREAM_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** Further attempts (on another replica when there is one) of a request that may be retried. */
export const UPSTREAM_RETRIES = 2;

/**
 * Socket and lookup errors of a service that is not there (stopped, restarting, crashed,
 * draining, its address gone): Node's and undici's codes, and reply-from's wrappers of them.
 * @see https://undici.nodejs.org/#/docs/api/Errors
 */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
]);

/** The service accepted the request and did not answer within the deadline. */
const TIMED_OUT = new Set([
  'FST_REPLY_FROM_TIMEOUT',
  'FST_REPLY_FROM_HTTP_REQUEST_TIMEOUT',
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Every `code` of an error, its `cause` chain and an AggregateError's `errors`. */
function codesOf(error: unknown, depth = 0, into: string[] = []): string[] {
  if (depth > 4 || typeof error !== 'object' || error === null) return into;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') into.push(code);
  if (cause !== undefined) codesOf(cause, depth + 1, into);
  if (Array.isArray(errors)) for (const e of errors) codesOf(e, depth + 1, into);
  return into;
}

/**
 * What the gateway answers when proxying to a service failed (docs/architecture.md § Upstream
 * failures at the gateway): **503** when the service could not be reached — connection refused
 * or reset, no answer to the connect, its name not resolving (a retryable state: the client
 * retries after `Retry-After`); **504** when it accepted the request and did not answer in time;
 * **502** when it answered something that is not valid HTTP (or anything else unexpected).
 */
export function upstreamFailureStatus(error: unknown): 502 | 503 | 504 {
  const codes = codesOf(error);
  // A connect that timed out reached no service: unreachable, not slow.
  if (codes.some((c) => UNREACHABLE.has(c))) return 503;
  if (codes.some((c) => TIMED_OUT.has(c))) return 504;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return status === 504 ? 504 : 502;
}

/** What the retry rule looks at: reply-from's request, its error or the service's answer. */
export interface UpstreamAttempt {
  method: string;
  headers: Record<string, unknown>;
  error?: unknown;
  response?: { statusCode: number; headers: Record<string, unknown> };
  /** Attempts already retried (0 after the first). */
  retries: number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the gateway sends a failed request again, to the service's next replica
 * (`ReplicaPool`) or through the same address (a Kubernetes Service picks another endpoint per
 * connection): at most {@link UPSTREAM_RETRIES} times, and only requests without a body (a
 * streamed body cannot be sent twice), when the service certainly did not run it —
 * - the connection was refused (nothing was sent), whatever the method;
 * - the service answered 503 with `Connection: close`: a process shutting down refuses every
 *   new request that way before any route runs (docs/operations.md § Shutdown);
 * - or, for GET, HEAD and OPTIONS only, the connection broke before an answer (they change
 *   nothing, so running them twice is harmless).
 * Everything else reaches the client: a 503 it retries itself, the same idempotency key
 * settling commands that move money.
 */
export function shouldRetryUpstream(attempt: UpstreamAttempt): boolean {
  if (attempt.retries >= UPSTREAM_RETRIES) return false;
  const length = attempt.headers['content-length'];
  const hasBody =
    attempt.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && Number(length) > 0);
  // undici destroys a streamed body with the first attempt's error, even a refused connect's.
  if (hasBody) return false;
  if (attempt.response) {
    const connection = attempt.response.headers['connection'];
    return (
      attempt.response.statusCode === 503 &&
      typeof connection === 'string' &&
      connection.toLowerCase() === 'close'
    );
  }
  const codes = codesOf(attempt.error);
  if (codes.includes('ECONNREFUSED')) return true;
  return SAFE_METHODS.has(attempt.method) && codes.some((c) => UNREACHABLE.has(c));
}

/** 10 ms doubling; the retries are few, the ceiling only bounds a misconfiguration. */
const UPSTREAM_BACKOFF = { initialMs: 10, maxMs: 1000 };

/** Pause before retry number `retries` + 1, ms (a few ms: another replica is likely up). */
export function upstreamRetryDelay(retries: number): number {
  return backoffDelay(retries, UPSTREAM_BACKOFF) + Math.floor(Math.random() * 10);
}

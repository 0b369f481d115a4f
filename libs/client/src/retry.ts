import { retryAfterSeconds } from './retry-after.js';
import type { FetchLike } from './session.js';

/**
 * When the SDK sends a request again by itself (README of the package, "Retries"). Only
 * requests that are safe to repeat are retried: GET, HEAD, OPTIONS, PUT and DELETE, and POST or
 * PATCH requests that carry an `Idempotency-Key` (the SDK adds one to every money movement,
 * docs/wallet.md § Idempotency) — the same key on every attempt.
 */
export interface RetryOptions {
  /** Attempts after the first one (default 3); 0 never retries. */
  maxRetries?: number;
  /**
   * The longest single wait (default 60 000 ms): a `Retry-After` beyond it is not waited for,
   * the answer is the error (its `retryAfter` says when to come back).
   */
  maxDelayMs?: number;
  /** First backoff step when the answer names no `Retry-After` (default 500 ms; doubles, ≤ 8 s). */
  baseDelayMs?: number;
}

/**
 * Statuses retried: 429 (rate limited) and 503 (a retryable server state, e.g. a database
 * restart; docs/architecture.md § PostgreSQL unreachable), honouring `Retry-After`; 502 and 504
 * (the gateway found a service down or slow) with backoff. A request that got no answer at all
 * (connection refused or reset) is retried with backoff too; an aborted one never.
 */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const MAX_BACKOFF_MS = 8_000;

/** True when sending `request` twice has the effect of sending it once. */
export function isRetrySafe(request: Request): boolean {
  return SAFE_METHODS.has(request.method) || request.headers.has('idempotency-key');
}

export interface RetryClock {
  /** Waits `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1) (backoff jitter). */
  random(): number;
}

const realClock: RetryClock = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  random: Math.random,
};

/**
 * `fetch` with the SDK's retries (see {@link RetryOptions}, {@link RETRY_STATUSES}): waits
 * `Retry-After` when the answer names it, else an exponential backoff with full jitter
 * (`random × min(8 s, base × 2^attempt)`); gives up after `maxRetries`, or at once when the
 * wait asked for exceeds `maxDelayMs`, answering the last response (or rethrowing the last
 * network error).
 */
export function withRetries(
  fetch: FetchLike,
  options: RetryOptions = {},
  clock: RetryClock = realClock,
): FetchLike {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const backoff = (attempt: number) =>
    Math.round(clock.random() * Math.min(MAX_BACKOFF_MS, baseDelayMs * 2 ** attempt));

  return async (request) => {
    if (maxRetries <= 0 || !isRetrySafe(request)) return fetch(request);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        response = await fetch(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await clock.sleep(backoff(attempt), request.signal);
        continue;
      }
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      const asked = retryAfterSeconds(response.headers.get('retry-after'));
      const wait = asked === undefined ? backoff(attempt) : asked * 1000;
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await clock.sleep(wait, request.signal);
    }
  };
}

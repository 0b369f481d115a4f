/** What the retry schedule needs to know of an attempt that did not succeed. */
export interface FailedAttempt {
  /** Attempts made so far, this one included (1 after the first). */
  attemptCount: number;
  /** HTTP status of the answer, null when none came. */
  status: number | null;
  /** The answer's `Retry-After` header, as sent (seconds or an HTTP date), if any. */
  retryAfter?: string | null;
}

export interface RetryPolicy {
  /** Pause before each attempt, ms; entry 0 is the first attempt (docs/org.md § Webhooks). */
  scheduleMs: readonly number[];
  /** ± fraction of random spread added to each pause (0.1 = ±10 %). */
  jitter: number;
  /** Longest `Retry-After` honoured, seconds. */
  retryAfterMaxSeconds: number;
}

/** What happens after an attempt that did not succeed. */
export type RetryDecision =
  | { kind: 'retry'; delayMs: number }
  | { kind: 'give_up' }
  /** 410 Gone: the receiver says the endpoint is no more; disable it at once. */
  | { kind: 'disable_endpoint' };

/** Statuses whose `Retry-After` is honoured (RFC 9110 § 10.2.3: 429, 503). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/**
 * The decision after a failed attempt (docs/org.md § Webhooks, Retries): 410 disables the
 * endpoint; otherwise the next pause of the schedule with jitter, lengthened to the receiver's
 * `Retry-After` on 429/503 (bounded by `retryAfterMaxSeconds`); past the schedule's end, give up.
 * `random` returns [0, 1) (`Math.random` by default; tests pass a fixed one).
 */
export function decideRetry(
  attempt: FailedAttempt,
  policy: RetryPolicy,
  now: Date = new Date(),
  random: () => number = Math.random,
): RetryDecision {
  if (attempt.status === 410) return { kind: 'disable_endpoint' };
  const next = policy.scheduleMs[attempt.attemptCount];
  if (next === undefined) return { kind: 'give_up' };
  let delayMs = withJitter(next, policy.jitter, random);
  if (attempt.status !== null && RETRY_AFTER_STATUSES.has(attempt.status)) {
    const asked = retryAfterMs(attempt.retryAfter ?? null, now);
    if (asked !== null)
      delayMs = Math.max(delayMs, Math.min(asked, policy.retryAfterMaxSeconds * 1000));
  }
  return { kind: 'retry', delayMs };
}

/** `ms` spread uniformly over ± `jitter` of itself, never below 0, rounded to a millisecond. */
export function withJitter(ms: number, jitter: number, random: () => number = Math.random): number {
  if (ms === 0 || jitter === 0) return ms;
  return Math.max(0, Math.round(ms * (1 + jitter * (2 * random() - 1))));
}

/**
 * A `Retry-After` value (RFC 9110 § 10.2.3: delay-seconds or an HTTP date) in milliseconds from
 * `now`; null when absent or unreadable, 0 for a date in the past.
 */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/GMT$/.test(text)) return null; // an HTTP date (IMF-fixdate) ends in GMT
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

import { ExponentialBackoff, noJitterGenerator } from 'cockatiel';

/** A capped exponential schedule: `initialMs`, doubling, never above `maxMs`. */
export interface BackoffSchedule {
  /** Delay after the first failure (attempt 0), ms. */
  readonly initialMs: number;
  /** Ceiling of every delay, ms. */
  readonly maxMs: number;
}

/** Doublings beyond which every schedule we use is at its ceiling (2^40 × 1 ms ≫ any cap). */
const MAX_DOUBLINGS = 40;

/**
 * The one back-off formula of the services (docs/decisions.md § Libraries for generic parts):
 * the pause before the retry that follows failure number `attempt` (0-based), i.e.
 * `min(maxMs, initialMs × 2^attempt)`, computed by cockatiel's `ExponentialBackoff` without
 * jitter so that callers whose library owns the retry loop (ioredis `retryStrategy`, JetStream
 * `nak(delay)`, the PostgreSQL listener's reconnect timer) share the schedule of the cockatiel
 * policies. Callers that want jitter add it. A negative or fractional `attempt` counts as its
 * floor, at least 0.
 * @returns milliseconds, an integer when `initialMs` is one.
 * @see https://github.com/connor4312/cockatiel#backoffs
 */
export function backoffDelay(attempt: number, schedule: BackoffSchedule): number {
  const steps = Math.min(Math.max(0, Math.floor(attempt)), MAX_DOUBLINGS);
  let backoff = new ExponentialBackoff({
    generator: noJitterGenerator,
    initialDelay: schedule.initialMs,
    maxDelay: schedule.maxMs,
  }).next();
  for (let i = 0; i < steps; i++) backoff = backoff.next(undefined);
  return backoff.duration;
}

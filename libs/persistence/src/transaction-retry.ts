import { isTransactionConflict } from '@wp/http';
import {
  decorrelatedJitterGenerator,
  ExponentialBackoff,
  handleWhen,
  retry,
  type RetryPolicy,
} from 'cockatiel';

/** Attempts after the first when a transaction is a deadlock or serialization victim. */
export const TRANSACTION_CONFLICT_RETRIES = 4;

/** What a policy reports to whoever counts conflicts (the metrics of DatabaseModule). */
export interface TransactionConflictListener {
  /** A conflict that will be retried. */
  retried(): void;
  /** A conflict that outlived every retry (answered 503 by the error filter). */
  gaveUp(): void;
}

/**
 * The retry policy of every transaction a service opens (docs/architecture.md § Deadlocks and
 * serialization failures): a deadlock (`40P01`) or serialization failure (`40001`) rolled the
 * whole transaction back, so the whole unit of work runs again, up to
 * {@link TRANSACTION_CONFLICT_RETRIES} more times, after an exponential pause with decorrelated
 * jitter (10 ms doubling, at most 200 ms) so the transactions that collided do not collide
 * again in step. Any other error, and success, passes through at once. cockatiel's
 * `RetryPolicy` (docs/decisions.md § Stack and toolchain).
 * @see https://github.com/connor4312/cockatiel#retry
 */
export function transactionRetryPolicy(): RetryPolicy {
  return retry(handleWhen(isTransactionConflict), {
    maxAttempts: TRANSACTION_CONFLICT_RETRIES,
    backoff: new ExponentialBackoff({
      generator: decorrelatedJitterGenerator,
      initialDelay: 10,
      maxDelay: 200,
    }),
  });
}

/**
 * The policy for DataSources that carry none ({@link retryingTransaction} falls back to it):
 * e.g. a plain TypeORM `DataSource` a test builds itself.
 */
const shared = transactionRetryPolicy();

/** A DataSource that knows its retry policy (`RetryingDataSource`). */
export interface HasTransactionRetry {
  readonly transactionRetry: RetryPolicy;
}

function policyOf(owner: unknown): RetryPolicy {
  const own = (owner as Partial<HasTransactionRetry> | null)?.transactionRetry;
  return own ?? shared;
}

/**
 * Runs `work` — one whole transaction, or one autocommit statement — and runs it again when
 * it failed as a deadlock or serialization victim, with the policy of `owner` (a
 * `RetryingDataSource`) or the shared one. `work` must be safe to repeat: everything it wrote
 * to the database was rolled back.
 * @throws the last error when it is not a conflict, or still one after the retries
 */
export function retryingTransaction<T>(owner: unknown, work: () => Promise<T>): Promise<T> {
  return policyOf(owner).execute(work);
}

/** Forwards a policy's retry and give-up events to `listener`. */
export function listenToConflicts(
  policy: RetryPolicy,
  listener: TransactionConflictListener,
): void {
  policy.onRetry(() => listener.retried());
  // Only conflicts reach the give-up: other errors leave the policy at once.
  policy.onGiveUp(() => listener.gaveUp());
}

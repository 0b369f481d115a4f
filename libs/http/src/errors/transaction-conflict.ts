/**
 * `Retry-After` of the 503 answered when a transaction kept losing to concurrent ones
 * (deadlock or serialization failure after its retries), seconds.
 */
export const TRANSACTION_CONFLICT_RETRY_AFTER_SECONDS = 1;

/**
 * SQLSTATEs PostgreSQL raises when it rolled a transaction back because of concurrent
 * transactions, not because of anything in it: `40P01` deadlock_detected (one of a lock cycle
 * is chosen as the victim) and `40001` serialization_failure. Running the whole transaction
 * again is the documented remedy.
 * @see https://www.postgresql.org/docs/current/mvcc-serialization-failure-handling.html
 */
export const TRANSACTION_CONFLICT_SQLSTATES: readonly string[] = ['40P01', '40001'];
const CONFLICT_SQLSTATES: ReadonlySet<string> = new Set(TRANSACTION_CONFLICT_SQLSTATES);

/**
 * Whether an error is a deadlock or serialization failure (docs/architecture.md § Deadlocks
 * and serialization failures): by its `code`, or that of TypeORM's `driverError` or a `cause`.
 * Such a transaction rolled back as a whole, so running it again is safe.
 */
export function isTransactionConflict(error: unknown, depth = 0): boolean {
  if (depth > 3 || typeof error !== 'object' || error === null) return false;
  const { code, driverError, cause } = error as {
    code?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && CONFLICT_SQLSTATES.has(code)) return true;
  if (driverError !== undefined && isTransactionConflict(driverError, depth + 1)) return true;
  return cause !== undefined && isTransactionConflict(cause, depth + 1);
}

import { DomainError } from './domain-error.js';

/** `Retry-After` of a 503 answered because a shared store (Redis) could not answer, seconds. */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * The 503 of a request that needs a shared store which does not answer, or cannot vouch for its
 * answer yet (emptied and not rebuilt): `UNAVAILABLE`, `Retry-After: 1`, nothing changed
 * (docs/architecture.md § Failure semantics).
 * @param what what could not be checked or done, e.g. "The access token could not be checked"
 */
export function storeUnavailable(what: string): DomainError {
  return new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
    detail: `${what}: a shared store is unavailable. Retry shortly.`,
    retryAfter: STORE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  });
}

/**
 * ioredis' rejections of a command when Redis cannot answer with the fail-fast options
 * (`failFastRedisOptions` of @wp/persistence): not connected, connection cut, command timed
 * out. They carry no code, only these messages (ioredis `Redis.sendCommand`, `Command`).
 */
const REDIS_UNAVAILABLE_MESSAGES =
  /^(Stream isn't writeable and enableOfflineQueue options is false|Connection is closed|Command timed out|Reached the max retries per request limit)/;

/**
 * Whether an error is a Redis command that could not be answered ({@link REDIS_UNAVAILABLE_MESSAGES},
 * also as `cause`). The error filter answers such an error that no caller turned into a
 * {@link storeUnavailable} with the same 503 instead of a 500.
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { message, name, cause } = error as { message?: unknown; name?: unknown; cause?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  if (typeof message === 'string' && REDIS_UNAVAILABLE_MESSAGES.test(message)) return true;
  return cause !== undefined && isStoreUnavailable(cause, depth + 1);
}

/**
 * The services that write durable entries into the shared stores and rebuild them from their own
 * database when Redis has lost them (docs/architecture.md § Redis is a cache): auth (Api-Key
 * registry, its revocations), org (its revocations: Sentinel Pass epochs and project key pairs;
 * tenant permission versions).
 */
export type CacheWriter = 'auth' | 'org';

/**
 * Whose deny-list entries a check depends on, by what is checked: user tokens are revoked only by
 * auth (logout, ended sessions); agent tokens by auth (logout) and org (ended credential epochs);
 * project key pairs only by org. A check needs those writers' parts rebuilt, no others.
 */
export const DENY_LIST_WRITERS = {
  user: ['auth'],
  agent: ['auth', 'org'],
  projectKey: ['org'],
} as const satisfies Record<string, readonly CacheWriter[]>;

/** Prefix of a rebuild request on the deny-list's announcement channel: `rebuild:<writer>`. */
export const REBUILD_REQUEST = 'rebuild:';

/**
 * A store cannot vouch for an answer: the writers' parts of it are missing (Redis restarted empty,
 * flushed, or the key evicted) and not rebuilt yet. Readers fail closed: 503 with `Retry-After`
 * (or, for tenant versions, ask org), and ask the writers to rebuild ({@link CacheRebuilder}).
 */
export class CacheNotRebuiltError extends Error {
  constructor(readonly writers: CacheWriter[]) {
    super(`the shared store is being rebuilt (${writers.join(', ')})`);
    this.name = 'CacheNotRebuiltError';
  }
}

/**
 * Rebuilds the shared stores from the writers' databases (docs/architecture.md § Redis is a cache).
 * Services mode: a writer registers what restores its part; it runs at boot, each time the Redis
 * connection is ready again, and when any process asks (a reader that met
 * {@link CacheNotRebuiltError} calls {@link request}; the request travels on the deny-list's
 * announcement channel). Embedded mode: nothing to do, the platform database is the truth.
 */
export abstract class CacheRebuilder {
  /**
   * @param rebuild restores everything `writer` owns in the stores from its database and marks
   *   it rebuilt (idempotent; runs are never concurrent within a process)
   */
  abstract register(writer: CacheWriter, rebuild: () => Promise<void>): void;
  /** Asks `writers` (in every process) to rebuild; never throws, at most every 200 ms each. */
  abstract request(writers: readonly CacheWriter[]): void;
}

/** Embedded mode: the stores are tables of the platform database, never lost, never rebuilt. */
export class NoCacheRebuilder extends CacheRebuilder {
  register(): void {}
  request(): void {}
}

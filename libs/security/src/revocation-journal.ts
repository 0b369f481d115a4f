import { activeTransaction, Propagation, type TxHost } from '@wp/persistence';
import type { DataSource } from 'typeorm';
import type { RevocationEntry, RevocationKind } from './stores/revocation.store.js';

/**
 * The PostgreSQL advisory lock that orders cache writes against rebuilds (docs/architecture.md
 * § Redis is a cache): a command that writes a durable entry to Redis holds it shared from before
 * its Redis write until it commits; a rebuild takes it exclusively before reading, so it waits for
 * every such command in flight and reads its committed row — a write that reached Redis just
 * before the flush is never lost by the rebuild.
 */
const CACHE_WRITES_LOCK = `hashtext('wp:cache-writes')`;

/**
 * Takes the cache-writes lock shared in the transaction active in the async context (released
 * at its end); call it before writing to Redis what the transaction also records in the database.
 * @throws Error when no transaction is active (`txHost.withTransaction`; a programming error)
 */
export async function lockCacheWrites(txHost: TxHost): Promise<void> {
  await activeTransaction(txHost).query(
    `SELECT pg_advisory_xact_lock_shared(${CACHE_WRITES_LOCK})`,
  );
}

/**
 * Runs `read` in a transaction of its own (a boundary of `txHost` that never joins one already
 * active in the async context: `Propagation.RequiresNew`) after taking the cache-writes lock
 * exclusively: every command that wrote to Redis before has committed (or rolled back) by then.
 * `read` finds that transaction through the same host (`txHost.tx`, e.g. {@link liveRevocations}).
 * Errors: PostgreSQL's `55P03` (lock_timeout, 5 s) when writers hold the lock that long.
 */
export function readForRebuild<T>(txHost: TxHost, read: () => Promise<T>): Promise<T> {
  return txHost.withTransaction(Propagation.RequiresNew, async () => {
    const manager = activeTransaction(txHost);
    // Never queue writers for long behind a rebuild (it is retried at the next trigger).
    await manager.query(`SET LOCAL lock_timeout = '5s'`);
    await manager.query(`SELECT pg_advisory_xact_lock(${CACHE_WRITES_LOCK})`);
    return read();
  });
}

/**
 * A writer's durable record of its deny-list entries: the table `revocation (kind, id,
 * expires_at)` in the writer's own database (auth's and org's migrations `Revocation…`). Written
 * in the command's transaction with the cache-writes lock held shared, so the entry survives
 * whatever happens to Redis; {@link liveRevocations} is what a rebuild restores.
 * @param expiresAt epoch seconds; a longer expiry already recorded is kept
 * @throws Error when no transaction is active in the async context (`txHost`)
 */
export async function recordRevocation(
  txHost: TxHost,
  kind: RevocationKind,
  id: string,
  expiresAt: number,
): Promise<void> {
  await activeTransaction(txHost).query(
    `WITH locked AS (SELECT pg_advisory_xact_lock_shared(${CACHE_WRITES_LOCK}))
     INSERT INTO revocation (kind, id, expires_at)
     SELECT $1, $2, to_timestamp($3) FROM locked
     ON CONFLICT (kind, id) DO UPDATE
       SET expires_at = GREATEST(revocation.expires_at, EXCLUDED.expires_at)`,
    [kind, id, expiresAt],
  );
}

/**
 * The writer's entries not yet expired (`expiresAt` in epoch seconds), read in the transaction
 * active in the async context (`readForRebuild`'s).
 * @throws Error when no transaction is active
 */
export async function liveRevocations(txHost: TxHost): Promise<RevocationEntry[]> {
  const rows: { kind: RevocationKind; id: string; expires_at: string }[] = await activeTransaction(
    txHost,
  ).query(
    `SELECT kind, id, ceil(extract(epoch FROM expires_at))::bigint AS expires_at
     FROM revocation WHERE expires_at > now()`,
  );
  return rows.map((r) => ({ kind: r.kind, id: r.id, expiresAt: Number(r.expires_at) }));
}

/**
 * Deletes the writer's entries that expired more than a minute ago: one autocommit statement on
 * the pool (`dataSource`, never a transaction: a periodic job's housekeeping, not a command's).
 */
export async function purgeRevocations(dataSource: DataSource): Promise<void> {
  await dataSource.query(`DELETE FROM revocation WHERE expires_at < now() - interval '1 minute'`);
}

import type { DataSource, EntityManager } from 'typeorm';
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
 * Takes the cache-writes lock shared in the caller's transaction (released at its end); call it
 * before writing to Redis what the transaction also records in the database.
 */
export async function lockCacheWrites(manager: EntityManager): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock_shared(${CACHE_WRITES_LOCK})`);
}

/**
 * Runs `read` in a transaction of its own after taking the cache-writes lock exclusively: every
 * command that wrote to Redis before has committed (or rolled back) by then.
 */
export function readForRebuild<T>(
  dataSource: DataSource,
  read: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(async (manager) => {
    // Never queue writers for long behind a rebuild (it is retried at the next trigger).
    await manager.query(`SET LOCAL lock_timeout = '5s'`);
    await manager.query(`SELECT pg_advisory_xact_lock(${CACHE_WRITES_LOCK})`);
    return read(manager);
  });
}

/**
 * A writer's durable record of its deny-list entries: the table `revocation (kind, id,
 * expires_at)` in the writer's own database (auth's and org's migrations `Revocation…`). Written
 * in the command's transaction with the cache-writes lock held shared, so the entry survives
 * whatever happens to Redis; {@link liveRevocations} is what a rebuild restores.
 * @param expiresAt epoch seconds; a longer expiry already recorded is kept
 */
export async function recordRevocation(
  manager: EntityManager,
  kind: RevocationKind,
  id: string,
  expiresAt: number,
): Promise<void> {
  await manager.query(
    `WITH locked AS (SELECT pg_advisory_xact_lock_shared(${CACHE_WRITES_LOCK}))
     INSERT INTO revocation (kind, id, expires_at)
     SELECT $1, $2, to_timestamp($3) FROM locked
     ON CONFLICT (kind, id) DO UPDATE
       SET expires_at = GREATEST(revocation.expires_at, EXCLUDED.expires_at)`,
    [kind, id, expiresAt],
  );
}

/** The writer's entries not yet expired. */
export async function liveRevocations(manager: EntityManager): Promise<RevocationEntry[]> {
  const rows: { kind: RevocationKind; id: string; expires_at: string }[] = await manager.query(
    `SELECT kind, id, ceil(extract(epoch FROM expires_at))::bigint AS expires_at
     FROM revocation WHERE expires_at > now()`,
  );
  return rows.map((r) => ({ kind: r.kind, id: r.id, expiresAt: Number(r.expires_at) }));
}

/** Deletes the writer's entries that expired more than a minute ago. */
export async function purgeRevocations(manager: EntityManager | DataSource): Promise<void> {
  await manager.query(`DELETE FROM revocation WHERE expires_at < now() - interval '1 minute'`);
}

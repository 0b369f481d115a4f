import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_POOL, PgListener, type NotificationHandler } from '@wp/persistence';
import type { Pool } from 'pg';
import type { CacheWriter } from './cache-rebuilder.js';
import { RevocationStore, type RevocationEntry, type RevocationKind } from './revocation.store.js';

/** `NOTIFY` channel of the platform database on which every revocation is announced. */
export const REVOCATIONS_NOTIFY_CHANNEL = 'wp_revocations';
const PURGE_MS = 60_000;

/**
 * Embedded mode: rows of the platform database's `revocation` table, valid until `expires_at`,
 * announced with `NOTIFY wp_revocations` in the same statement (so in the same transaction: both
 * or neither, and the notification is delivered only after the row is committed). PostgreSQL
 * delivers notifications in commit order. Expired rows are purged every minute. The table is the
 * durable truth itself: it is never lost without the database, so nothing is ever rebuilt into it
 * and every answer is vouched for (`writers` plays no part).
 */
@Injectable()
export class PostgresRevocationStore extends RevocationStore implements OnApplicationShutdown {
  private readonly purge: PeriodicJob;

  constructor(
    @Inject(PLATFORM_POOL) private readonly pool: Pool,
    private readonly listener: PgListener,
  ) {
    super();
    // A failed purge is retried at the next tick; expired rows are never read as denials.
    this.purge = periodicJobs.every('security.revocation-purge', PURGE_MS, () =>
      this.pool
        .query(`DELETE FROM revocation WHERE expires_at < now() - interval '1 minute'`)
        .catch(() => undefined),
    );
  }

  async deny(
    kind: RevocationKind,
    id: string,
    ttlSeconds: number,
    announcement: string,
  ): Promise<void> {
    await this.pool.query(
      `WITH denied AS (
         INSERT INTO revocation (kind, id, expires_at)
         VALUES ($1, $2, now() + make_interval(secs => $3))
         ON CONFLICT (kind, id) DO UPDATE
           SET expires_at = GREATEST(revocation.expires_at, EXCLUDED.expires_at)
         RETURNING 1
       )
       SELECT pg_notify($4, $5) FROM denied`,
      [kind, id, ttlSeconds, REVOCATIONS_NOTIFY_CHANNEL, announcement],
    );
  }

  async isDenied(jti: string, sid: string, _writers?: readonly CacheWriter[]): Promise<boolean> {
    const { rows } = await this.pool.query<{ denied: boolean }>({
      name: 'platform_revocation_is_denied',
      text: `SELECT EXISTS (
               SELECT 1 FROM revocation
               WHERE ((kind = 'jti' AND id = $1) OR (kind = 'sid' AND id = $2))
                 AND expires_at > now()
             ) AS denied`,
      values: [jti, sid],
    });
    return rows[0].denied;
  }

  /** Upserts the entries (keeping longer expiries); nothing calls it in embedded mode. */
  async restore(_writer: CacheWriter, entries: RevocationEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.pool.query(
      `INSERT INTO revocation (kind, id, expires_at)
       SELECT kind, id, to_timestamp(expires_at)
       FROM unnest($1::text[], $2::text[], $3::double precision[]) AS e(kind, id, expires_at)
       ON CONFLICT (kind, id) DO UPDATE
         SET expires_at = GREATEST(revocation.expires_at, EXCLUDED.expires_at)`,
      [entries.map((e) => e.kind), entries.map((e) => e.id), entries.map((e) => e.expiresAt)],
    );
  }

  async announce(message: string): Promise<void> {
    await this.pool.query({
      name: 'platform_revocation_announce',
      text: 'SELECT pg_notify($1, $2)',
      values: [REVOCATIONS_NOTIFY_CHANNEL, message],
    });
  }

  async subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const handler: NotificationHandler = (payload) => onMessage(payload);
    await this.listener.listen(REVOCATIONS_NOTIFY_CHANNEL, handler);
    return () => this.listener.unlisten(REVOCATIONS_NOTIFY_CHANNEL, handler);
  }

  onApplicationShutdown(): Promise<void> {
    return this.purge.stop();
  }
}

import { activeTransaction, returningRows, TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/** A claimed delivery with what its attempt needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  organizationId: number;
  /** Attempts so far, this one included. */
  attemptCount: number;
  eventId: string;
  payload: Record<string, unknown>;
  url: string;
  encryptedSecret: string;
  previousEncryptedSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** One attempt's outcome as stored. */
export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** One finished attempt, as the dispatcher hands it over for storing. */
export interface DeliveryResult {
  claim: ClaimedDelivery;
  attempt: AttemptRecord;
  outcome: DeliveryOutcome;
}

/** An endpoint's failure streak after a batch. */
export interface EndpointStreak {
  failingSince: Date;
  enabled: boolean;
}

/** What becomes of the delivery after an attempt. */
export type DeliveryOutcome =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' }
  | { kind: 'failed_and_disable'; reason: string };

/** Candidates read per claim, per free slot: room for skipping endpoints that are full. */
const CANDIDATES_PER_SLOT = 4;

/**
 * The delivery queue in PostgreSQL (docs/org.md § Webhooks, Queue): due rows are claimed with
 * `FOR UPDATE SKIP LOCKED` (replicas never claim the same row at once) and leased — status
 * `delivering`, `locked_until` and `next_attempt_at` set to the lease's end — so the claims of a
 * process killed mid-attempt are due again once the lease ends. The attempt's result is written
 * only while the claim is still this process's (same attempt count), in one transaction with the
 * attempt row.
 */
@Injectable()
export class DeliveryStore {
  constructor(private readonly txHost: TxHost) {}

  /**
   * Claims up to `slots` due deliveries of enabled endpoints, keeping every endpoint at most at
   * `perEndpoint` leased deliveries counted over every org process (docs/org.md § Webhooks,
   * Dispatcher). Endpoints already at their limit are left out of the candidates, so a slow
   * endpoint's backlog never crowds the others out. The count and the claim of one endpoint are
   * serialised between processes by a transaction-scoped advisory lock taken with
   * `pg_try_advisory_xact_lock`: an endpoint another process is claiming right now is skipped
   * (never waited for), and the count read after the lock sees that process's committed claim.
   */
  async claim(slots: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.txHost.withTransaction(async () => {
      const manager = this.txHost.tx;
      const candidates: { id: string; endpoint_id: string }[] = await manager.query(
        `SELECT d.id, d.endpoint_id FROM webhook_delivery d
           JOIN webhook_endpoint e ON e.id = d.endpoint_id AND e.enabled
          WHERE d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
            AND d.endpoint_id NOT IN (
              SELECT endpoint_id FROM webhook_delivery
               WHERE status = 'delivering' AND locked_until > now()
               GROUP BY endpoint_id HAVING count(*) >= $2)
          ORDER BY d.next_attempt_at
          LIMIT $1
          FOR UPDATE OF d SKIP LOCKED`,
        [slots * CANDIDATES_PER_SLOT, perEndpoint],
      );
      if (candidates.length === 0) return [];
      const room = await this.lockEndpoints(
        [...new Set(candidates.map((c) => c.endpoint_id))],
        perEndpoint,
      );
      const chosen: string[] = [];
      for (const row of candidates) {
        if (chosen.length >= slots) break;
        const left = room.get(row.endpoint_id) ?? 0;
        if (left <= 0) continue;
        room.set(row.endpoint_id, left - 1);
        chosen.push(row.id);
      }
      if (chosen.length === 0) return [];
      const rows = await returningRows<Record<string, unknown>>(
        manager.query(
          `UPDATE webhook_delivery d
            SET status = 'delivering', attempt_count = d.attempt_count + 1,
                locked_until = now() + make_interval(secs => $2::double precision / 1000),
                next_attempt_at = now() + make_interval(secs => $2::double precision / 1000),
                updated_at = now()
           FROM webhook_message m, webhook_endpoint e
          WHERE d.id = ANY($1::uuid[]) AND m.id = d.message_id AND e.id = d.endpoint_id
          RETURNING d.id, d.endpoint_id, e.organization_id, d.attempt_count, m.event_id, m.payload,
                    e.url, e.encrypted_secret, e.previous_encrypted_secret,
                    e.previous_secret_expires_at`,
          [chosen, leaseMs],
        ),
      );
      return rows.map(toClaimed);
    });
  }

  /**
   * Locks the endpoints no other process is claiming for (advisory, until commit) and returns
   * each locked endpoint's free room: `perEndpoint` minus its deliveries leased right now.
   * In the claim's transaction (active in the async context).
   */
  private async lockEndpoints(
    endpointIds: string[],
    perEndpoint: number,
  ): Promise<Map<string, number>> {
    const manager = activeTransaction(this.txHost);
    const locked: { id: string }[] = await manager.query(
      `SELECT id FROM unnest($1::uuid[]) AS id
        WHERE pg_try_advisory_xact_lock(hashtextextended('webhook_endpoint:' || id::text, 0))`,
      [endpointIds],
    );
    if (locked.length === 0) return new Map();
    const counts: { endpoint_id: string; n: number }[] = await manager.query(
      `SELECT endpoint_id, count(*)::int AS n FROM webhook_delivery
        WHERE endpoint_id = ANY($1::uuid[]) AND status = 'delivering' AND locked_until > now()
        GROUP BY endpoint_id`,
      [locked.map((l) => l.id)],
    );
    const room = new Map(locked.map((l) => [l.id, perEndpoint]));
    for (const c of counts) room.set(c.endpoint_id, perEndpoint - c.n);
    return room;
  }

  /**
   * Stores a batch of finished attempts in one transaction (group commit: one round of
   * statements for every attempt that ended meanwhile): the attempt rows, each delivery's next
   * state — written only while the claim is still this process's (same attempt count; a lease
   * that ran out and was taken over leaves the newer claim alone) — and each endpoint's failure
   * streak (`failing_since`) from its latest outcome in the batch; 410 disables the endpoint
   * (returned only by the batch that disabled it, so it is announced once).
   * A delivery deleted meanwhile (with its endpoint) keeps no attempt.
   * @returns per endpoint whose latest outcome failed: its failure streak start and whether it
   *   is still enabled
   */
  async recordAll(results: readonly DeliveryResult[]): Promise<Map<string, EndpointStreak>> {
    return this.txHost.withTransaction(async () => {
      const manager = this.txHost.tx;
      await manager.query(
        `INSERT INTO webhook_attempt (id, delivery_id, started_at, duration_ms, response_status,
                                      response_body, error)
         SELECT t.* FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::int[], $5::int[],
                                $6::text[], $7::text[])
                  AS t(id, delivery_id, started_at, duration_ms, response_status, response_body, error)
          WHERE EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.id = t.delivery_id)`,
        [
          results.map(() => randomUUID()),
          results.map((r) => r.claim.id),
          results.map((r) => r.attempt.startedAt.toISOString()),
          results.map((r) => r.attempt.durationMs),
          results.map((r) => r.attempt.responseStatus),
          results.map((r) => r.attempt.responseBody),
          results.map((r) => r.attempt.error),
        ],
      );
      const owned = await returningRows<{ id: string }>(
        manager.query(
          `UPDATE webhook_delivery d
              SET status = t.status,
                  next_attempt_at = CASE WHEN t.status = 'pending'
                    THEN now() + make_interval(secs => t.delay_ms / 1000) END,
                  locked_until = NULL, updated_at = now()
             FROM unnest($1::uuid[], $2::int[], $3::text[], $4::double precision[])
                    AS t(id, attempt_count, status, delay_ms)
            WHERE d.id = t.id AND d.status = 'delivering' AND d.attempt_count = t.attempt_count
            RETURNING d.id`,
          [
            results.map((r) => r.claim.id),
            results.map((r) => r.claim.attemptCount),
            results.map((r) => statusOf(r.outcome)),
            results.map((r) => (r.outcome.kind === 'retry' ? r.outcome.delayMs : 0)),
          ],
        ),
      );
      const ownedIds = new Set(owned.map((o) => o.id));
      const latest = new Map<string, DeliveryOutcome>();
      for (const r of results)
        if (ownedIds.has(r.claim.id)) latest.set(r.claim.endpointId, r.outcome);
      return this.streaks(latest);
    });
  }

  /** Applies each endpoint's latest outcome to its failure streak, in the batch's transaction. */
  private async streaks(
    latest: Map<string, DeliveryOutcome>,
  ): Promise<Map<string, EndpointStreak>> {
    const manager = activeTransaction(this.txHost);
    const healed: string[] = [];
    const failing: string[] = [];
    const gone: string[] = [];
    for (const [endpointId, outcome] of latest) {
      if (outcome.kind === 'succeeded') healed.push(endpointId);
      else if (outcome.kind === 'failed_and_disable') gone.push(endpointId);
      else failing.push(endpointId);
    }
    if (healed.length > 0) {
      await manager.query(
        `UPDATE webhook_endpoint SET failing_since = NULL
          WHERE id = ANY($1::uuid[]) AND failing_since IS NOT NULL`,
        [healed],
      );
    }
    const rows: { id: string; failing_since: Date; enabled: boolean }[] = [];
    if (gone.length > 0) {
      rows.push(
        ...(await returningRows<{ id: string; failing_since: Date; enabled: boolean }>(
          manager.query(
            `UPDATE webhook_endpoint
                SET enabled = false, disabled_reason = 'gone',
                    failing_since = COALESCE(failing_since, now()), updated_at = now()
              WHERE id = ANY($1::uuid[]) AND enabled RETURNING id, failing_since, enabled`,
            [gone],
          ),
        )),
      );
    }
    if (failing.length > 0) {
      rows.push(
        ...(await returningRows<{ id: string; failing_since: Date; enabled: boolean }>(
          manager.query(
            `UPDATE webhook_endpoint SET failing_since = COALESCE(failing_since, now())
              WHERE id = ANY($1::uuid[]) RETURNING id, failing_since, enabled`,
            [failing],
          ),
        )),
      );
    }
    return new Map(rows.map((r) => [r.id, { failingSince: r.failing_since, enabled: r.enabled }]));
  }
}

function statusOf(outcome: DeliveryOutcome): string {
  switch (outcome.kind) {
    case 'succeeded':
      return 'succeeded';
    case 'retry':
      return 'pending';
    case 'failed':
    case 'failed_and_disable':
      return 'failed';
  }
}

function toClaimed(r: Record<string, unknown>): ClaimedDelivery {
  return {
    id: r['id'] as string,
    endpointId: r['endpoint_id'] as string,
    organizationId: r['organization_id'] as number,
    attemptCount: r['attempt_count'] as number,
    eventId: r['event_id'] as string,
    payload: r['payload'] as Record<string, unknown>,
    url: r['url'] as string,
    encryptedSecret: r['encrypted_secret'] as string,
    previousEncryptedSecret: r['previous_encrypted_secret'] as string | null,
    previousSecretExpiresAt: r['previous_secret_expires_at'] as Date | null,
  };
}

import { activeTransaction, returningRows, TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';

/** A claimed delivery with what its attempt needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  organizationId: number;
  /** Attempts so far, this one included (the claim token of its result). */
  attemptCount: number;
  /** End of the lease: the attempt must be over before it. */
  lockedUntil: Date;
  /** When it was leased, ms since the epoch (this process's clock). */
  claimedAt: number;
  eventId: string;
  /** The stored message text, sent as it is (the signed body). */
  body: string;
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

/**
 * How many deliveries of one endpoint a dispatcher may hold leased (docs/org.md § Webhooks,
 * Dispatcher): `ahead` for endpoints that answer quickly, `slow` (its concurrency, nothing
 * queued ahead) for `slowEndpointIds` — those whose last attempt failed or took long — so a
 * dead endpoint's queue never holds many deliveries leased while their attempts time out.
 */
export interface LeaseWindow {
  ahead: number;
  slow: number;
  slowEndpointIds: readonly string[];
}

/** Most candidate rows read per claim. */
const MAX_CANDIDATES = 256;

/**
 * The delivery queue in PostgreSQL (docs/org.md § Webhooks, Queue and Dispatcher): due rows are
 * leased — status `delivering`, `leased_by` the dispatcher, `locked_until` and `next_attempt_at`
 * set to the lease's end — so the claims of a process killed mid-attempt are due again once the
 * lease ends. An endpoint's leases belong to one dispatcher at a time, which sends them from a
 * queue of its own. The attempt's result is written only while the claim is still this
 * dispatcher's (same attempt count), in one transaction with the attempt row.
 */
@Injectable()
export class DeliveryStore {
  constructor(private readonly txHost: TxHost) {}

  /**
   * Leases up to `slots` due deliveries of enabled endpoints for dispatcher `dispatcherId`, at
   * most `window` leased per endpoint (counting what it holds already), and only of endpoints no
   * other dispatcher holds a live lease of (docs/org.md § Webhooks, Dispatcher). The candidates
   * are read without row locks; each endpoint's count and claim are serialised between processes
   * by a transaction-scoped advisory lock (`pg_try_advisory_xact_lock`: an endpoint another
   * process is claiming for right now is skipped, never waited for), so the count read after the
   * lock sees that process's committed leases, and the UPDATE claims only rows still due.
   * @returns the leased deliveries, oldest due first
   */
  async claim(
    slots: number,
    window: LeaseWindow,
    leaseMs: number,
    dispatcherId: string,
  ): Promise<ClaimedDelivery[]> {
    return this.txHost.withTransaction(async () => {
      const manager = this.txHost.tx;
      const candidates: { id: string; endpoint_id: string }[] = await manager.query(
        `SELECT d.id, d.endpoint_id FROM webhook_delivery d
           JOIN webhook_endpoint e ON e.id = d.endpoint_id AND e.enabled
          WHERE d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
            AND d.endpoint_id NOT IN (
              SELECT endpoint_id FROM webhook_delivery
               WHERE status = 'delivering' AND locked_until > now()
               GROUP BY endpoint_id
              HAVING count(*) >= $2 OR bool_or(leased_by IS DISTINCT FROM $3::uuid))
          ORDER BY d.next_attempt_at
          LIMIT $1`,
        [Math.min(slots * 2, MAX_CANDIDATES), window.ahead, dispatcherId],
      );
      if (candidates.length === 0) return [];
      const room = await this.lockEndpoints(
        [...new Set(candidates.map((c) => c.endpoint_id))],
        window,
        dispatcherId,
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
            SET status = 'delivering', attempt_count = d.attempt_count + 1, leased_by = $3,
                locked_until = now() + make_interval(secs => $2::double precision / 1000),
                next_attempt_at = now() + make_interval(secs => $2::double precision / 1000),
                updated_at = now()
           FROM webhook_message m, webhook_endpoint e
          WHERE d.id = ANY($1::uuid[]) AND m.id = d.message_id AND e.id = d.endpoint_id
            AND d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
          RETURNING d.id, d.endpoint_id, e.organization_id, d.attempt_count, d.locked_until,
                    m.event_id, m.payload::text AS body, e.url, e.encrypted_secret,
                    e.previous_encrypted_secret, e.previous_secret_expires_at`,
          [chosen, leaseMs, dispatcherId],
        ),
      );
      const order = new Map(chosen.map((id, i) => [id, i]));
      return rows.map(toClaimed).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    });
  }

  /**
   * Locks the endpoints no other process is claiming for (advisory, until commit) and returns
   * the room of each locked endpoint that no other dispatcher holds a live lease of: `window`
   * minus the deliveries `dispatcherId` holds leased now. In the claim's transaction.
   */
  private async lockEndpoints(
    endpointIds: string[],
    window: LeaseWindow,
    dispatcherId: string,
  ): Promise<Map<string, number>> {
    const manager = activeTransaction(this.txHost);
    const rows: { id: string; room: number }[] = await manager.query(
      `WITH locked AS MATERIALIZED (
         SELECT id FROM unnest($1::uuid[]) AS id
          WHERE pg_try_advisory_xact_lock(hashtextextended('webhook_endpoint:' || id::text, 0)))
       SELECT l.id,
              (CASE WHEN l.id = ANY($4::uuid[]) THEN $5::int ELSE $2::int END - count(d.id))::int AS room
         FROM locked l
         LEFT JOIN webhook_delivery d
           ON d.endpoint_id = l.id AND d.status = 'delivering' AND d.locked_until > now()
        GROUP BY l.id
       HAVING NOT coalesce(bool_or(d.id IS NOT NULL AND d.leased_by IS DISTINCT FROM $3::uuid), false)`,
      [endpointIds, window.ahead, dispatcherId, window.slowEndpointIds, window.slow],
    );
    return new Map(rows.map((r) => [r.id, r.room]));
  }

  /**
   * Gives leased deliveries that were never attempted back to the queue, due now, with the
   * attempt count their lease added taken off again (shutdown; an endpoint disabled while they
   * waited in the dispatcher's queue). Only rows still leased by `dispatcherId` under the same
   * claim are changed.
   */
  async release(claims: readonly ClaimedDelivery[], dispatcherId: string): Promise<void> {
    if (claims.length === 0) return;
    await this.txHost.tx.query(
      `UPDATE webhook_delivery d
          SET status = 'pending', attempt_count = d.attempt_count - 1, next_attempt_at = now(),
              locked_until = NULL, leased_by = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS t(id, attempt_count)
        WHERE d.id = t.id AND d.status = 'delivering' AND d.attempt_count = t.attempt_count
          AND d.leased_by = $3`,
      [claims.map((c) => c.id), claims.map((c) => c.attemptCount), dispatcherId],
    );
  }

  /**
   * Lengthens the lease of a delivery that waited in the dispatcher's queue, if its endpoint is
   * still enabled.
   * @returns false when the delivery is no longer leased by this claim or its endpoint was
   *   disabled or deleted meanwhile
   */
  async renew(claim: ClaimedDelivery, leaseMs: number, dispatcherId: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      this.txHost.tx.query(
        `UPDATE webhook_delivery d
            SET locked_until = now() + make_interval(secs => $3::double precision / 1000),
                next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
           FROM webhook_endpoint e
          WHERE d.id = $1 AND d.status = 'delivering' AND d.attempt_count = $2
            AND d.leased_by = $4 AND e.id = d.endpoint_id AND e.enabled
          RETURNING d.id`,
        [claim.id, claim.attemptCount, leaseMs, dispatcherId],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Stores a batch of finished attempts (group commit: one statement for every attempt that
   * ended meanwhile, so one round trip and one implicit transaction): each delivery's next state
   * — written only while the claim is still this process's (same attempt count; a lease that ran
   * out and was taken over leaves the newer claim alone) — with its attempt row, and each
   * endpoint's failure streak (`failing_since`) from its latest outcome in the batch; 410
   * disables the endpoint (returned only by the batch that disabled it, so it is announced once).
   * The rows are handed over as one JSON parameter (`json_to_recordset`), cheaper to build and
   * to read than one array per column. Attempts whose claim was lost are stored afterwards by
   * {@link recordLost}.
   * @returns per endpoint whose latest outcome failed: its failure streak start and whether it
   *   is still enabled
   */
  async recordAll(results: readonly DeliveryResult[]): Promise<Map<string, EndpointStreak>> {
    const rows = await returningRows<{
      id: string | null;
      failing_since: Date | null;
      enabled: boolean | null;
      lost: string | null;
    }>(
      this.txHost.tx.query(
        `WITH input AS (
           SELECT * FROM json_to_recordset($1::json) AS t(
             ord int, id uuid, endpoint_id uuid, attempt_count int, started_at timestamptz,
             duration_ms int, response_status int, response_body text, error text,
             kind text, delay_ms double precision)),
         owned AS (
           UPDATE webhook_delivery d
              SET status = CASE i.kind WHEN 'succeeded' THEN 'succeeded'
                                       WHEN 'retry' THEN 'pending' ELSE 'failed' END,
                  next_attempt_at = CASE WHEN i.kind = 'retry'
                    THEN now() + make_interval(secs => i.delay_ms / 1000) END,
                  locked_until = NULL, leased_by = NULL, updated_at = now()
             FROM input i
            WHERE d.id = i.id AND d.status = 'delivering' AND d.attempt_count = i.attempt_count
            RETURNING i.*),
         attempts AS (
           INSERT INTO webhook_attempt (id, delivery_id, started_at, duration_ms, response_status,
                                        response_body, error)
           SELECT gen_random_uuid(), id, started_at, duration_ms, response_status, response_body,
                  error FROM owned),
         latest AS (
           SELECT DISTINCT ON (endpoint_id) endpoint_id, kind FROM owned
            ORDER BY endpoint_id, ord DESC),
         healed AS (
           UPDATE webhook_endpoint e SET failing_since = NULL FROM latest l
            WHERE e.id = l.endpoint_id AND l.kind = 'succeeded' AND e.failing_since IS NOT NULL),
         gone AS (
           UPDATE webhook_endpoint e
              SET enabled = false, disabled_reason = 'gone',
                  failing_since = COALESCE(e.failing_since, now()), updated_at = now()
             FROM latest l
            WHERE e.id = l.endpoint_id AND l.kind = 'failed_and_disable' AND e.enabled
            RETURNING e.id, e.failing_since, e.enabled),
         failing AS (
           UPDATE webhook_endpoint e SET failing_since = COALESCE(e.failing_since, now())
             FROM latest l
            WHERE e.id = l.endpoint_id AND l.kind IN ('retry', 'failed')
            RETURNING e.id, e.failing_since, e.enabled)
         SELECT id, failing_since, enabled, NULL::uuid AS lost FROM gone
         UNION ALL SELECT id, failing_since, enabled, NULL FROM failing
         UNION ALL SELECT NULL, NULL, NULL, i.id FROM input i
          WHERE NOT EXISTS (SELECT 1 FROM owned o WHERE o.id = i.id)`,
        [
          JSON.stringify(
            results.map((r, ord) => ({
              ord,
              id: r.claim.id,
              endpoint_id: r.claim.endpointId,
              attempt_count: r.claim.attemptCount,
              started_at: r.attempt.startedAt,
              duration_ms: r.attempt.durationMs,
              response_status: r.attempt.responseStatus,
              response_body: r.attempt.responseBody,
              error: r.attempt.error,
              kind: r.outcome.kind,
              delay_ms: r.outcome.kind === 'retry' ? r.outcome.delayMs : 0,
            })),
          ),
        ],
      ),
    );
    const lost = new Set(rows.flatMap((r) => (r.lost ? [r.lost] : [])));
    if (lost.size > 0) await this.recordLost(results.filter((r) => lost.has(r.claim.id)));
    return new Map(
      rows.flatMap((r) =>
        r.id && r.failing_since && r.enabled !== null
          ? [[r.id, { failingSince: r.failing_since, enabled: r.enabled }] as const]
          : [],
      ),
    );
  }

  /**
   * Stores the attempts of deliveries whose claim was lost meanwhile (the lease ran out and
   * another dispatcher took it over): the request was made, so the log keeps it; the delivery's
   * state is the newer claim's. A delivery deleted meanwhile (with its endpoint) keeps no
   * attempt: the deliveries are locked `FOR KEY SHARE` before their attempts reference them,
   * so a delete that commits in between cannot fail the statement.
   */
  private async recordLost(results: readonly DeliveryResult[]): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO webhook_attempt (id, delivery_id, started_at, duration_ms, response_status,
                                    response_body, error)
       SELECT gen_random_uuid(), t.* FROM json_to_recordset($1::json) AS t(
                delivery_id uuid, started_at timestamptz, duration_ms int, response_status int,
                response_body text, error text)
        WHERE t.delivery_id IN (SELECT d.id FROM webhook_delivery d
                                 WHERE d.id IN (SELECT (x->>'delivery_id')::uuid
                                                  FROM json_array_elements($1::json) x)
                                   FOR KEY SHARE)`,
      [
        JSON.stringify(
          results.map((r) => ({
            delivery_id: r.claim.id,
            started_at: r.attempt.startedAt,
            duration_ms: r.attempt.durationMs,
            response_status: r.attempt.responseStatus,
            response_body: r.attempt.responseBody,
            error: r.attempt.error,
          })),
        ),
      ],
    );
  }
}

function toClaimed(r: Record<string, unknown>): ClaimedDelivery {
  return {
    id: r['id'] as string,
    endpointId: r['endpoint_id'] as string,
    organizationId: r['organization_id'] as number,
    attemptCount: r['attempt_count'] as number,
    lockedUntil: r['locked_until'] as Date,
    claimedAt: Date.now(),
    eventId: r['event_id'] as string,
    body: r['body'] as string,
    url: r['url'] as string,
    encryptedSecret: r['encrypted_secret'] as string,
    previousEncryptedSecret: r['previous_encrypted_secret'] as string | null,
    previousSecretExpiresAt: r['previous_secret_expires_at'] as Date | null,
  };
}

import { returningRows } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

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
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims up to `slots` due deliveries, at most `perEndpoint(endpointId)` per endpoint,
   * skipping endpoints in `full` and disabled endpoints.
   */
  async claim(
    slots: number,
    full: readonly string[],
    perEndpoint: (endpointId: string) => number,
    leaseMs: number,
  ): Promise<ClaimedDelivery[]> {
    return this.dataSource.transaction(async (manager) => {
      const candidates: { id: string; endpoint_id: string }[] = await manager.query(
        `SELECT d.id, d.endpoint_id FROM webhook_delivery d
           JOIN webhook_endpoint e ON e.id = d.endpoint_id AND e.enabled
          WHERE d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
            AND NOT (d.endpoint_id = ANY($2::uuid[]))
          ORDER BY d.next_attempt_at
          LIMIT $1
          FOR UPDATE OF d SKIP LOCKED`,
        [slots * CANDIDATES_PER_SLOT, full],
      );
      const taken = new Map<string, number>();
      const chosen: string[] = [];
      for (const row of candidates) {
        if (chosen.length >= slots) break;
        const count = taken.get(row.endpoint_id) ?? 0;
        if (count >= perEndpoint(row.endpoint_id)) continue;
        taken.set(row.endpoint_id, count + 1);
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
   * Stores the attempt and the delivery's next state; keeps the endpoint's failure streak
   * (`failing_since`) and disables it when asked. Nothing but the attempt row is written when
   * the claim is no longer this process's (its lease ended and another process took it).
   * @returns the endpoint's failure streak start after this attempt (null while it succeeds)
   */
  async record(
    claim: ClaimedDelivery,
    attempt: AttemptRecord,
    outcome: DeliveryOutcome,
  ): Promise<{ failingSince: Date | null; enabled: boolean } | null> {
    return this.dataSource.transaction(async (manager) => {
      // (a delivery deleted meanwhile, with its endpoint, keeps no attempt)
      await manager.query(
        `INSERT INTO webhook_attempt (id, delivery_id, started_at, duration_ms, response_status,
                                      response_body, error)
         SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM webhook_delivery WHERE id = $2)`,
        [
          randomUUID(),
          claim.id,
          attempt.startedAt.toISOString(),
          attempt.durationMs,
          attempt.responseStatus,
          attempt.responseBody,
          attempt.error,
        ],
      );
      const owned = await returningRows<unknown>(
        manager.query(
          `UPDATE webhook_delivery
            SET status = $3::text,
                next_attempt_at = CASE WHEN $3::text = 'pending'
                  THEN now() + make_interval(secs => $4::double precision / 1000) END,
                locked_until = NULL, updated_at = now()
          WHERE id = $1 AND status = 'delivering' AND attempt_count = $2
          RETURNING id`,
          [
            claim.id,
            claim.attemptCount,
            statusOf(outcome),
            outcome.kind === 'retry' ? outcome.delayMs : 0,
          ],
        ),
      );
      if (owned.length === 0) return null;
      return this.endpointAfter(manager, claim.endpointId, outcome);
    });
  }

  private async endpointAfter(
    manager: EntityManager,
    endpointId: string,
    outcome: DeliveryOutcome,
  ): Promise<{ failingSince: Date | null; enabled: boolean } | null> {
    const sql =
      outcome.kind === 'succeeded'
        ? `UPDATE webhook_endpoint SET failing_since = NULL
            WHERE id = $1 AND failing_since IS NOT NULL RETURNING failing_since, enabled`
        : outcome.kind === 'failed_and_disable'
          ? `UPDATE webhook_endpoint
                SET enabled = false, disabled_reason = $2,
                    failing_since = COALESCE(failing_since, now()), updated_at = now()
              WHERE id = $1 RETURNING failing_since, enabled`
          : `UPDATE webhook_endpoint SET failing_since = COALESCE(failing_since, now())
              WHERE id = $1 RETURNING failing_since, enabled`;
    const params =
      outcome.kind === 'failed_and_disable' ? [endpointId, outcome.reason] : [endpointId];
    const rows = await returningRows<{ failing_since: Date | null; enabled: boolean }>(
      manager.query(sql, params),
    );
    const row = rows[0];
    return row ? { failingSince: row.failing_since, enabled: row.enabled } : null;
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

import { activeTransaction, returningRows, TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DeliveryStatus } from './webhook-tables.js';

/** Filters of a delivery log page (all optional). */
export interface DeliveryFilter {
  status?: DeliveryStatus[];
  eventTypes?: string[];
  /** Deliveries created at or after this instant. */
  since?: Date;
  /** One delivery only. */
  id?: string;
}

/** Keyset position: deliveries strictly older than (createdAt, id). */
export interface DeliveryCursor {
  /** `created_at` as PostgreSQL prints it (microseconds kept). */
  at: string;
  id: string;
}

export interface AttemptRow {
  id: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

export interface DeliveryRow {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  cursorAt: string;
  attempts: AttemptRow[];
}

/** Most attempts shown per delivery (the newest). */
const ATTEMPTS_SHOWN = 20;

/**
 * Reads and re-queues one endpoint's deliveries (docs/org.md § Webhooks, Delivery log). The log
 * (`page`, `find`) is read on the pool; re-queueing and the replay's read of missed messages run
 * in the transaction active in the async context (`TxHost`) and throw without one.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly txHost: TxHost,
  ) {}

  /** Up to `limit` deliveries after `cursor`, newest first, each with its attempts. */
  async page(
    endpointId: string,
    filter: DeliveryFilter,
    cursor: DeliveryCursor | null,
    limit: number,
  ): Promise<DeliveryRow[]> {
    const params: unknown[] = [endpointId];
    const clauses = ['d.endpoint_id = $1'];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      clauses.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.status?.length) add('d.status = ANY(?::text[])', filter.status);
    if (filter.eventTypes?.length) add('d.event_type = ANY(?::text[])', filter.eventTypes);
    if (filter.since) add('d.created_at >= ?', filter.since.toISOString());
    if (filter.id !== undefined) add('d.id = ?::uuid', filter.id);
    if (cursor) {
      params.push(cursor.at, cursor.id);
      clauses.push(
        `(d.created_at, d.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`,
      );
    }
    params.push(limit);
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT d.id, m.event_id, d.event_type, d.status, d.attempt_count, d.next_attempt_at,
              d.created_at, d.updated_at, d.created_at::text AS cursor_at
         FROM webhook_delivery d JOIN webhook_message m ON m.id = d.message_id
        WHERE ${clauses.join(' AND ')}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $${params.length}`,
      params,
    );
    const attempts = await this.attemptsOf(rows.map((r) => r['id'] as string));
    return rows.map((r) => ({
      id: r['id'] as string,
      eventId: r['event_id'] as string,
      eventType: r['event_type'] as string,
      status: r['status'] as DeliveryStatus,
      attemptCount: r['attempt_count'] as number,
      nextAttemptAt: r['next_attempt_at'] as Date | null,
      createdAt: r['created_at'] as Date,
      updatedAt: r['updated_at'] as Date,
      cursorAt: r['cursor_at'] as string,
      attempts: attempts.get(r['id'] as string) ?? [],
    }));
  }

  /** One delivery of the endpoint, with its attempts; null when not the endpoint's. */
  async find(endpointId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const [row] = await this.page(endpointId, { id: deliveryId }, null, 1);
    return row ?? null;
  }

  /**
   * Makes a delivery due now with a fresh retry schedule (a `succeeded` or `failed` one starts
   * over; a `pending` one is just due now).
   * @returns false when it is not the endpoint's or an attempt of it is in flight
   * @throws Error when no transaction is active
   */
  async resend(endpointId: string, deliveryId: string): Promise<boolean> {
    const rows = await returningRows<unknown>(
      activeTransaction(this.txHost).query(
        `UPDATE webhook_delivery
          SET attempt_count = CASE WHEN status IN ('succeeded', 'failed') THEN 0 ELSE attempt_count END,
              status = 'pending', next_attempt_at = now(), locked_until = NULL, updated_at = now()
        WHERE id = $1 AND endpoint_id = $2 AND status <> 'delivering'
        RETURNING id`,
        [deliveryId, endpointId],
      ),
    );
    return rows.length > 0;
  }

  /**
   * The endpoint's `failed` deliveries of messages since `since`, due again now; their count.
   * @throws Error when no transaction is active
   */
  async requeueFailed(endpointId: string, since: Date): Promise<number> {
    const rows = await returningRows<unknown>(
      activeTransaction(this.txHost).query(
        `UPDATE webhook_delivery d
          SET status = 'pending', attempt_count = 0, next_attempt_at = now(), updated_at = now()
         FROM webhook_message m
        WHERE d.endpoint_id = $1 AND d.status = 'failed' AND m.id = d.message_id
          AND m.created_at >= $2
        RETURNING d.id`,
        [endpointId, since.toISOString()],
      ),
    );
    return rows.length;
  }

  /**
   * Messages of the organization since `since` that the endpoint has no delivery of (oldest
   * first), read in the transaction active in the async context (on the pool outside one).
   */
  async missed(
    organizationId: number,
    endpointId: string,
    since: Date,
    limit: number,
  ): Promise<{ id: string; eventType: string; projectId: string | null }[]> {
    const rows: { id: string; event_type: string; project_id: string | null }[] =
      await this.txHost.tx.query(
        `SELECT m.id, m.event_type, m.project_id::text AS project_id FROM webhook_message m
          WHERE m.organization_id = $1 AND m.created_at >= $3 AND m.event_type <> 'ping'
            AND NOT EXISTS (SELECT 1 FROM webhook_delivery d
                             WHERE d.message_id = m.id AND d.endpoint_id = $2)
          ORDER BY m.created_at
          LIMIT $4`,
        [organizationId, endpointId, since.toISOString(), limit],
      );
    return rows.map((r) => ({ id: r.id, eventType: r.event_type, projectId: r.project_id }));
  }

  private async attemptsOf(deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
    const byDelivery = new Map<string, AttemptRow[]>();
    if (deliveryIds.length === 0) return byDelivery;
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT id, delivery_id, started_at, duration_ms, response_status, response_body, error
         FROM (SELECT a.*, row_number() OVER (PARTITION BY delivery_id ORDER BY started_at DESC) AS n
                 FROM webhook_attempt a WHERE delivery_id = ANY($1::uuid[])) t
        WHERE n <= $2
        ORDER BY started_at`,
      [deliveryIds, ATTEMPTS_SHOWN],
    );
    for (const r of rows) {
      const list = byDelivery.get(r['delivery_id'] as string) ?? [];
      list.push({
        id: r['id'] as string,
        startedAt: r['started_at'] as Date,
        durationMs: r['duration_ms'] as number,
        responseStatus: r['response_status'] as number | null,
        responseBody: r['response_body'] as string | null,
        error: r['error'] as string | null,
      });
      byDelivery.set(r['delivery_id'] as string, list);
    }
    return byDelivery;
  }
}

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { WebhookEnvelope, type WebhookEvent } from '@wp/contracts';
import { activeTransaction, TxHost } from '@wp/persistence';
import { DispatchSignal } from './dispatch-signal.js';
import { fanOut, type EndpointScope } from './endpoint-matching.js';

/**
 * The body receivers get: the event's fields in the documented order (docs/webhooks.md
 * § Envelope), the order of the envelope's schema.
 */
const ENVELOPE_ORDER = Object.keys(WebhookEnvelope.shape);

interface EndpointRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  event_types: string[];
  enabled: boolean;
}

/**
 * Fan-out of public events (docs/org.md § Webhooks, Flow): `publish(events)` stores each event
 * once as a `webhook_message` and queues one `webhook_delivery` per enabled endpoint that
 * selects it, in the transaction active in the async context (`TxHost`; without one it throws,
 * docs/org.md § Transactions), so deliveries exist iff the change commits.
 * Organizations without endpoints cost one indexed read and store nothing; an organization with
 * endpoints (even disabled ones) keeps its messages, so a re-enabled endpoint can replay what it
 * missed. A source handled twice (redelivery) stores nothing new: messages are unique per
 * organization and event id.
 */
@Injectable()
export class WebhookPublisher {
  constructor(
    private readonly txHost: TxHost,
    private readonly signal: DispatchSignal,
  ) {}

  /** @throws Error when no transaction is active (a programming error) */
  async publish(events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    const manager = activeTransaction(this.txHost);
    const organizationIds = [...new Set(events.map((e) => Number(e.organization_id)))];
    const rows: EndpointRow[] = await manager.query(
      `SELECT id, organization_id::text AS organization_id, project_id::text AS project_id,
              event_types, enabled
         FROM webhook_endpoint WHERE organization_id = ANY($1::int[])`,
      [organizationIds],
    );
    if (rows.length === 0) return;
    const tenants = new Set(rows.map((r) => r.organization_id));
    const kept = events.filter((e) => tenants.has(e.organization_id));
    const enabled = rows.filter((r) => r.enabled).map(toScope);
    const targets = new Map(
      fanOut(enabled, kept).map((f) => [`${f.event.organization_id}/${f.event.id}`, f]),
    );
    const stored = await this.storeMessages(kept);
    const deliveries = stored.flatMap((m) =>
      (targets.get(`${m.organizationId}/${m.eventId}`)?.endpointIds ?? []).map((endpointId) => ({
        messageId: m.id,
        endpointId,
        eventType: m.eventType,
      })),
    );
    await this.queue(deliveries);
  }

  /**
   * Stores one event and queues it for one endpoint whatever its filters (`ping`, resends of a
   * new kind), in the active transaction; returns the delivery id.
   * @throws Error when no transaction is active, or when the event is stored already
   */
  async publishTo(event: WebhookEvent, endpointId: string): Promise<string> {
    const [message] = await this.storeMessages([event]);
    if (!message) throw new Error(`event ${event.id} is already stored`);
    const [delivery] = await this.queue([
      { messageId: message.id, endpointId, eventType: event.type },
    ]);
    return delivery;
  }

  /** Wakes this process's dispatcher once the active transaction commits (enabled endpoint). */
  wakeAfterCommit(): void {
    this.signal.mark();
  }

  /** Inserts the messages not stored yet; returns those inserted. */
  private async storeMessages(
    events: readonly WebhookEvent[],
  ): Promise<{ id: string; eventId: string; organizationId: string; eventType: string }[]> {
    if (events.length === 0) return [];
    const manager = activeTransaction(this.txHost);
    const rows: { id: string; event_id: string; organization_id: string; event_type: string }[] =
      await manager.query(
        `INSERT INTO webhook_message (id, event_id, organization_id, project_id, event_type, payload)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::text[], $6::json[])
         ON CONFLICT (organization_id, event_id) DO NOTHING
         RETURNING id, event_id, organization_id::text AS organization_id, event_type`,
        [
          events.map(() => randomUUID()),
          events.map((e) => e.id),
          events.map((e) => Number(e.organization_id)),
          events.map((e) => (e.project_id === null ? null : Number(e.project_id))),
          events.map((e) => e.type),
          events.map(webhookBody),
        ],
      );
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      organizationId: r.organization_id,
      eventType: r.event_type,
    }));
  }

  /** Queues deliveries due now and wakes the dispatcher after commit; returns their ids. */
  private async queue(
    deliveries: { messageId: string; endpointId: string; eventType: string }[],
  ): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const ids = deliveries.map(() => randomUUID());
    await activeTransaction(this.txHost).query(
      `INSERT INTO webhook_delivery (id, message_id, endpoint_id, event_type, status, next_attempt_at)
       SELECT id, message_id, endpoint_id, event_type, 'pending', now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[])
           AS t(id, message_id, endpoint_id, event_type)
       ON CONFLICT (message_id, endpoint_id) DO NOTHING`,
      [
        ids,
        deliveries.map((d) => d.messageId),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.eventType),
      ],
    );
    this.signal.mark();
    return ids;
  }
}

function toScope(row: EndpointRow): EndpointScope {
  return {
    id: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    eventTypes: row.event_types,
  };
}

/**
 * The JSON text stored once per message and sent, signed, on every attempt: the event's fields
 * in the documented order, then any others.
 */
export function webhookBody(event: WebhookEvent): string {
  const fields = event as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ENVELOPE_ORDER) if (key in fields) out[key] = fields[key];
  for (const [key, value] of Object.entries(fields)) if (!(key in out)) out[key] = value;
  return JSON.stringify(out);
}

import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@wp/contracts';
import { METRICS_REGISTRY } from '@wp/observability';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/**
 * The outbox seen from Prometheus, read from the service's database on every scrape
 * (docs/operations.md § Metrics): `outbox_unpublished_messages` (rows waiting for the relay) and
 * `outbox_oldest_unpublished_age_seconds` (0 when none wait). A growing age means the bus is
 * down or the relay stuck; readiness stays 200 meanwhile (`degraded`).
 */
@Injectable()
export class OutboxMetrics {
  constructor(@Inject(METRICS_REGISTRY) registry: Registry, dataSource: DataSource) {
    let last: Promise<{ count: number; age: number }> | undefined;
    // Both gauges read one query per scrape.
    const read = () => {
      last ??= dataSource
        .query(
          `SELECT count(*)::int AS count,
                  COALESCE(EXTRACT(EPOCH FROM now() - min(occurred_at)), 0)::float8 AS age
           FROM outbox_message WHERE published_at IS NULL`,
        )
        .then((rows: { count: number; age: number }[]) => rows[0])
        .finally(() => setTimeout(() => (last = undefined), 100).unref());
      return last;
    };
    new Gauge({
      name: 'outbox_unpublished_messages',
      help: 'Outbox rows not yet published to the event bus',
      registers: [registry],
      async collect() {
        this.set((await read().catch(() => ({ count: NaN }))).count);
      },
    });
    new Gauge({
      name: 'outbox_oldest_unpublished_age_seconds',
      help: 'Age of the oldest outbox row not yet published, seconds (0: none)',
      registers: [registry],
      async collect() {
        this.set((await read().catch(() => ({ age: NaN }))).age);
      },
    });
  }
}

/**
 * Deliveries to this service's durable consumers, whatever the transport: `events_delivered_total`
 * and `events_redelivered_total` (a delivery after a failed or unacknowledged one) by consumer,
 * `events_delivery_lag_seconds` (event occurrence → delivery), and, where the bus tells it
 * (JetStream), `events_consumer_pending_messages` (messages the consumer has not received yet).
 */
@Injectable()
export class ConsumerMetrics {
  private readonly delivered: Counter<'consumer'>;
  private readonly redelivered: Counter<'consumer'>;
  private readonly lag: Histogram<'consumer'>;
  private readonly pending: Gauge<'consumer'>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.delivered = new Counter({
      name: 'events_delivered_total',
      help: 'Event deliveries to a durable consumer (first deliveries and redeliveries)',
      labelNames: ['consumer'],
      registers: [registry],
    });
    this.redelivered = new Counter({
      name: 'events_redelivered_total',
      help: 'Event redeliveries to a durable consumer (after a failure or an ack timeout)',
      labelNames: ['consumer'],
      registers: [registry],
    });
    this.lag = new Histogram({
      name: 'events_delivery_lag_seconds',
      help: 'Time from an event occurring to its delivery to a consumer, seconds',
      labelNames: ['consumer'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600, 3600],
      registers: [registry],
    });
    this.pending = new Gauge({
      name: 'events_consumer_pending_messages',
      help: 'Messages of the stream the durable consumer has not received yet (JetStream)',
      labelNames: ['consumer'],
      registers: [registry],
    });
  }

  /**
   * One delivery. `attempt` counts from 1; `pending` when the transport knows it.
   * @param consumer durable name without namespace, e.g. `wallet.organization_wallet`
   */
  record(consumer: string, envelope: EventEnvelope, attempt: number, pending?: number): void {
    this.delivered.inc({ consumer });
    if (attempt > 1) this.redelivered.inc({ consumer });
    const occurred = Date.parse(envelope.occurredAt);
    if (Number.isFinite(occurred)) {
      this.lag.observe({ consumer }, Math.max(0, (Date.now() - occurred) / 1000));
    }
    if (pending !== undefined) this.pending.set({ consumer }, pending);
  }
}

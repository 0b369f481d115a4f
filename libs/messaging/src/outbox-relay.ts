import { type PeriodicJob, periodicJobs } from '@wp/observability';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import type { EventEnvelope, EventSubject } from '@wp/contracts';
import { returningRows } from '@wp/persistence';
import { DataSource, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import { EventTransport } from './event-transport.js';
import { Outbox } from './outbox.js';

const BATCH = 200;
const POLL_MS = 1000;
const RETENTION_HOURS = 24;

interface OutboxRow {
  id: string;
  /** bigint, as text. */
  seq: string;
  subject: string;
  payload: unknown;
  occurred_at: Date;
}

/**
 * Publishes outbox rows to the event transport (docs/architecture.md § Data ownership and events):
 * claims a batch with `FOR UPDATE SKIP LOCKED` (several replicas never publish the same row twice
 * at once) and stamps `published_at` in the same statement, publishes each with its id as
 * `Nats-Msg-Id` (JetStream drops duplicates within its window), commits — or rolls the stamp
 * back when a publication failed: three round trips per batch. Woken right after a producing transaction commits and
 * when the bus is back after an outage, and polls every second for anything left over (a crash). Published rows are deleted after
 * 24 hours.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private job?: PeriodicJob;
  private draining?: Promise<void>;
  private again = false;
  private stopped = false;
  private lastCleanup = 0;
  private failing = false;
  private stopping?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transport: EventTransport,
    private readonly outbox: Outbox,
  ) {}

  onApplicationBootstrap(): void {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        this.outbox.committed(event.queryRunner.data);
      },
    };
    this.dataSource.subscribers.push(subscriber);
    this.outbox.onCommitted(() => this.kick());
    // The bus is back (NATS reconnected): what waited goes now, not at the next poll.
    this.transport.onAvailable(() => this.kick());
    this.job = periodicJobs.every('messaging.outbox-poll', POLL_MS, () => this.kick());
    this.kick();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /**
   * Stops the relay and publishes what is still pending once (docs/operations.md § Shutdown):
   * rows committed by the requests that finished while the process drained leave now rather
   * than waiting for another replica's poll. Called by the transport modules before they close
   * (Nest runs their shutdown hooks before this global module's); idempotent. A failure (bus
   * down) leaves the rows for the next relay.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      await this.job?.stop();
      await this.draining;
      try {
        while ((await this.publishBatch()) === BATCH);
      } catch (error) {
        this.logger.warn(`final outbox flush incomplete: ${(error as Error).message}`);
      }
    })();
    return this.stopping;
  }

  /** Publishes everything pending; concurrent calls coalesce. */
  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when nothing published before the call is still pending (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    await this.drain();
  }

  private async drain(): Promise<void> {
    try {
      let published: number;
      do {
        published = await this.publishBatch();
      } while (published === BATCH && !this.stopped);
      if (this.failing) this.logger.log('event publishing recovered');
      this.failing = false;
      await this.cleanup();
    } catch (error) {
      if (!this.failing) {
        this.logger.warn(`event publishing paused: ${(error as Error).message}`);
      }
      this.failing = true;
    }
  }

  /**
   * One claim round in a transaction of its own, opened on the DataSource rather than through
   * `TxHost`: the relay is woken from a producer's commit hook, whose async context still holds
   * that finished transaction, and a `TxHost` boundary would join it (docs/decisions.md
   * § Transactions in the request context). The manager stays inside this callback.
   */
  private async publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      // Claimed and stamped in one statement; a failed publication rolls the stamp back.
      const rows = await returningRows<OutboxRow>(
        manager.query(
          `UPDATE outbox_message SET published_at = now()
            WHERE id IN (SELECT id FROM outbox_message WHERE published_at IS NULL
                          ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING id, seq, subject, payload, occurred_at`,
          [BATCH],
        ),
      );
      if (rows.length === 0) return 0;
      rows.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq))); // RETURNING has no order
      await Promise.all(rows.map((row) => this.transport.publish(toEnvelope(row))));
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 3600_000) return;
    this.lastCleanup = now;
    await this.dataSource.query(
      `DELETE FROM outbox_message WHERE published_at < now() - make_interval(hours => $1)`,
      [RETENTION_HOURS],
    );
    await this.dataSource.query(
      `DELETE FROM processed_event WHERE processed_at < now() - interval '8 days'`,
    );
  }
}

/** {@link OutboxRelay.stop} of the app's relay, if it has one (transport modules' shutdown). */
export async function stopOutboxRelay(moduleRef: ModuleRef): Promise<void> {
  let relay: OutboxRelay;
  try {
    relay = moduleRef.get(OutboxRelay, { strict: false });
  } catch {
    return; // no messaging in this app
  }
  await relay.stop();
}

function toEnvelope(row: OutboxRow): EventEnvelope {
  return {
    id: row.id,
    subject: row.subject as EventSubject,
    occurredAt: new Date(row.occurred_at).toISOString(),
    payload: row.payload as EventEnvelope['payload'],
  };
}

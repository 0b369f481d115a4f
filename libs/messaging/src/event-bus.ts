import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { EVENT_CATALOG, streamOf, type EventEnvelope, type EventSubject } from '@wp/contracts';
import { startupPhases } from '@wp/observability';
import { TxHost } from '@wp/persistence';
import { EventTransport } from './event-transport.js';
import { MESSAGING_OPTIONS, type MessagingOptions } from './namespace.js';

/**
 * Handles one event inside the delivery's transaction: repositories reach it through `TxHost`
 * (`txHost.tx`, or `activeTransaction(txHost)` for writes; docs/decisions.md § Transactions in
 * the request context).
 */
export type EventHandler<S extends EventSubject> = (event: EventEnvelope<S>) => Promise<void>;

/**
 * Consuming side of the event bus (docs/architecture.md § Data ownership and events): `on(subject,
 * name, handler)` registers a durable consumer `<service>.<name>`. Each delivery's payload is
 * validated against the contracts catalog, then the handler runs in one database transaction
 * (a `TxHost` boundary: its repositories use `txHost.tx`)
 * together with the processed-event row, so a redelivered event is skipped and the broker is acked
 * only after commit. Invalid payloads are logged and dropped (redelivering them cannot succeed).
 */
@Injectable()
export class EventBus implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventBus');

  constructor(
    private readonly transport: EventTransport,
    private readonly txHost: TxHost,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  on<S extends EventSubject>(subject: S, name: string, handler: EventHandler<S>): void {
    const consumer = `${this.options.service}.${name}`;
    const schema = EVENT_CATALOG[subject];
    this.transport.subscribe({
      subject,
      stream: streamOf(subject),
      durable: consumer,
      handler: async (envelope) => {
        const parsed = schema.safeParse(envelope.payload);
        if (!parsed.success) {
          this.logger.error(
            `${consumer}: invalid payload for ${subject} (event ${envelope.id}): ${parsed.error.message}; dropped`,
          );
          return;
        }
        const event = { ...envelope, payload: parsed.data } as EventEnvelope<S>;
        // One boundary (retried whole on deadlocks), opened in a CLS context of its own.
        await this.txHost.withTransaction(async () => {
          const inserted: unknown[] = await this.txHost.tx.query(
            `INSERT INTO processed_event (consumer, event_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING RETURNING event_id`,
            [consumer, envelope.id],
          );
          if (inserted.length === 0) return; // already handled: a redelivery
          await handler(event);
        });
      },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await startupPhases.track('subscriptions', () => this.transport.start());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transport.stop();
  }
}

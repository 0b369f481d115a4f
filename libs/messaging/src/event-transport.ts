import type { EventEnvelope, EventStream } from '@wp/contracts';

/** Handles one delivered event; rejecting asks the transport to redeliver it later. */
export type DeliveryHandler = (envelope: EventEnvelope) => Promise<void>;

export interface SubscriptionSpec {
  /** Subject without namespace, e.g. `org.organization.created`. */
  subject: string;
  stream: EventStream;
  /** Durable consumer name, e.g. `wallet.organization_wallet`. */
  durable: string;
  handler: DeliveryHandler;
}

/**
 * The event bus seen by the rest of the platform (docs/architecture.md § Data ownership and
 * events): publish an envelope, subscribe durably. JetStream implements it in services mode,
 * pg-boss in the platform database in embedded mode (§ Two modes); producers and consumers do
 * not know which.
 */
export abstract class EventTransport {
  /** Publishes with de-duplication on `envelope.id`; resolves once the broker stored it. */
  abstract publish(envelope: EventEnvelope): Promise<void>;
  /** Registers a durable subscription; deliveries start with {@link start}. */
  abstract subscribe(spec: SubscriptionSpec): void;
  abstract start(): Promise<void>;
  abstract stop(): Promise<void>;

  /**
   * Calls `listener` whenever the bus is back after an interruption (NATS reconnected), so the
   * outbox relay publishes what waited at once rather than at its next poll. Default: never (a
   * transport whose outages its pools ride out, like pg-boss).
   */
  onAvailable(listener: () => void): void {
    void listener;
  }
}

/** Runs when a signal arrives; signals carry no payload. */
export type SignalHandler = () => void;

/**
 * Wake-ups for every process that listens (docs/architecture.md § Two modes): "something is
 * waiting, look now" with no payload, no storage and no delivery promise — a lost signal only
 * means the listener finds the work at its own next poll, so every user keeps one. Core NATS
 * publish/subscribe (no queue group: every process hears it) in services mode, `NOTIFY`/`LISTEN`
 * in the platform database in embedded mode. A process hears its own signals too.
 */
export abstract class SignalTransport {
  /**
   * Signals `name` (a dotted name such as `org.webhooks.enqueued`, before namespacing) to every
   * listening process; never throws (a failure is logged, the poll is the safety net).
   */
  abstract signal(name: string): Promise<void>;
  /** Calls `handler` on every signal `name`, from now until shutdown. */
  abstract listen(name: string, handler: SignalHandler): Promise<void>;
}

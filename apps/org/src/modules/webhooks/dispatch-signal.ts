import { Injectable, Logger } from '@nestjs/common';
import { SignalTransport } from '@wp/messaging';
import { TxHost } from '@wp/persistence';

const MARK = 'webhooks';

/** The signal every org process listens to (`SignalTransport`: NATS or `NOTIFY`). */
export const DELIVERIES_QUEUED_SIGNAL = 'org.webhooks.queued';

/**
 * The wake-up of the dispatchers (docs/org.md § Webhooks, Flow): a transaction that queued
 * deliveries marks itself; once it commits, the dispatcher of this process is woken at once and
 * every org process is signalled (`DELIVERIES_QUEUED_SIGNAL` over the `SignalTransport`: core
 * NATS in services mode, `NOTIFY` on the platform database in embedded mode), so whichever
 * replica has free slots sends without waiting for its poll. Signals are coalesced: while one is
 * being sent, further commits ask for one more after it, never more. A lost signal costs at most
 * one poll interval.
 */
@Injectable()
export class DispatchSignal {
  private readonly logger = new Logger('WebhookDispatchSignal');
  private listener?: () => void;
  private sending?: Promise<void>;
  private again = false;

  constructor(
    private readonly signals: SignalTransport,
    private readonly txHost: TxHost,
  ) {}

  /**
   * Marks the transaction active in the async context (`TxHost`), so the dispatchers are woken
   * once it commits; outside one, wakes them now.
   */
  mark(): void {
    const runner = this.txHost.tx.queryRunner;
    if (runner?.isTransactionActive) {
      runner.data = { ...runner.data, [MARK]: true };
    } else {
      this.wake();
    }
  }

  /** Called after each commit with the transaction's data. */
  committed(transactionData: Record<string, unknown> | undefined): void {
    if (transactionData?.[MARK] === true) this.wake();
  }

  /** Wakes this process's dispatcher now and signals the other processes. */
  wake(): void {
    this.listener?.();
    this.broadcast();
  }

  /** Registers this process's dispatcher, woken locally and by every process's signal. */
  async onWake(listener: () => void): Promise<void> {
    this.listener = listener;
    await this.signals.listen(DELIVERIES_QUEUED_SIGNAL, listener);
  }

  private broadcast(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = this.signals
      .signal(DELIVERIES_QUEUED_SIGNAL)
      .catch((error: unknown) => this.logger.warn((error as Error).message))
      .finally(() => {
        this.sending = undefined;
        if (this.again) {
          this.again = false;
          this.broadcast();
        }
      });
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

const MARK = 'webhooks';

/**
 * The in-process wake-up of the dispatcher (docs/org.md § Webhooks, Flow): a transaction that
 * queued deliveries marks itself; once it commits, the dispatcher of this process is woken and
 * sends them at once. Other processes find them at their next poll.
 */
@Injectable()
export class DispatchSignal {
  private listener?: () => void;

  /** Marks the caller's transaction (or, outside one, wakes the dispatcher now). */
  mark(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) {
      runner.data = { ...runner.data, [MARK]: true };
    } else {
      this.listener?.();
    }
  }

  /** Called after each commit with the transaction's data. */
  committed(transactionData: Record<string, unknown> | undefined): void {
    if (transactionData?.[MARK] === true) this.listener?.();
  }

  /** Wakes the dispatcher now. */
  wake(): void {
    this.listener?.();
  }

  onWake(listener: () => void): void {
    this.listener = listener;
  }
}

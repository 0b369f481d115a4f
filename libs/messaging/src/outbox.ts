import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EVENT_CATALOG, type EventPayload, type EventSubject } from '@wp/contracts';
import type { EntityManager } from 'typeorm';
import { OutboxMessage } from './entities.js';

/**
 * Publishing side of the event bus: `enqueue` writes an outbox row with the caller's
 * transaction manager, so the event exists if and only if the change commits. The relay
 * publishes it after commit. Returns the event id.
 */
@Injectable()
export class Outbox {
  private listener?: () => void;

  async enqueue<S extends EventSubject>(
    manager: EntityManager,
    subject: S,
    payload: EventPayload<S>,
  ): Promise<string> {
    const data = EVENT_CATALOG[subject].parse(payload); // a producer bug fails the command
    const id = randomUUID();
    await manager.insert(OutboxMessage, {
      id,
      subject,
      payload: data as object,
      occurredAt: new Date(),
      publishedAt: null,
    });
    if (manager.queryRunner)
      manager.queryRunner.data = { ...manager.queryRunner.data, outbox: true };
    return id;
  }

  /** Called after a transaction commits: wakes the relay when that transaction enqueued events. */
  committed(transactionData: Record<string, unknown> | undefined): void {
    if (transactionData?.['outbox'] === true) this.listener?.();
  }

  onCommitted(listener: () => void): void {
    this.listener = listener;
  }
}

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EVENT_CATALOG, type EventPayload, type EventSubject } from '@wp/contracts';
import { activeTransaction, TxHost } from '@wp/persistence';
import { OutboxMessage } from './entities.js';

/**
 * An outbox row built and checked against the catalog but not written yet: for a hot path that
 * inserts it in the same statement as its change ({@link Outbox.draft}).
 */
export interface OutboxDraft {
  /** Event id (UUID), the relay's `Nats-Msg-Id`. */
  id: string;
  subject: EventSubject;
  /** The payload as parsed by the catalog, serialized for a `jsonb` parameter. */
  payloadJson: string;
  occurredAt: Date;
}

/**
 * `INSERT` of an {@link OutboxDraft} for a data-modifying CTE, parameters `$n`…`$n+3` = the
 * values of {@link outboxDraftValues}, e.g. `WITH event AS (${outboxDraftInsert(12)}) …`.
 */
export function outboxDraftInsert(first: number): string {
  const [a, b, c, d] = [first, first + 1, first + 2, first + 3];
  return `INSERT INTO outbox_message (id, subject, payload, occurred_at)
          VALUES ($${a}::uuid, $${b}, $${c}::jsonb, $${d})`;
}

/** The parameters of {@link outboxDraftInsert}, in order. */
export function outboxDraftValues(draft: OutboxDraft): unknown[] {
  return [draft.id, draft.subject, draft.payloadJson, draft.occurredAt];
}

/**
 * Publishing side of the event bus: `enqueue(subject, payload)` writes an outbox row in the
 * transaction active in the async context (`TxHost`), so the event exists if and only if the
 * change commits. The relay publishes it after commit. Returns the event id.
 */
@Injectable()
export class Outbox {
  private listener?: () => void;

  constructor(private readonly txHost: TxHost) {}

  /**
   * @throws Error when no transaction is active (a programming error: the event would not
   *   belong to the change); the payload's contract error when it does not match the catalog
   */
  async enqueue<S extends EventSubject>(subject: S, payload: EventPayload<S>): Promise<string> {
    return this.write(subject, payload);
  }

  /**
   * Writes an event that is the whole change on its own: one autocommit INSERT (no
   * BEGIN/COMMIT around it), then wakes the relay. For a hot path outside any command
   * transaction (a sign-in's audit entry).
   * @throws Error when a transaction is active: the event belongs to it (`enqueue`)
   */
  async enqueueAlone<S extends EventSubject>(
    subject: S,
    payload: EventPayload<S>,
  ): Promise<string> {
    if (this.txHost.isTransactionActive()) {
      throw new Error('a transaction is active: enqueue the event in it');
    }
    const id = await this.write(subject, payload, true);
    this.listener?.();
    return id;
  }

  /**
   * Builds an event row to be inserted by the caller's own autocommit statement (a data-modifying
   * CTE with {@link outboxDraftInsert}), so a hot path writes its change and its event in one
   * round trip and one commit. The caller calls {@link Outbox.written} once that statement
   * succeeded (it wakes the relay).
   * @throws the payload's contract error when it does not match the catalog (as `enqueue`)
   */
  draft<S extends EventSubject>(subject: S, payload: EventPayload<S>): OutboxDraft {
    const data = EVENT_CATALOG[subject].parse(payload);
    return {
      id: randomUUID(),
      subject,
      payloadJson: JSON.stringify(data),
      occurredAt: new Date(),
    };
  }

  /**
   * A statement holding a {@link OutboxDraft} committed: wakes the relay on the next turn of the
   * event loop, after the answer the caller is building was written (publishing is not part
   * of it).
   */
  written(): void {
    setImmediate(() => this.listener?.());
  }

  /** In the active transaction; `alone`: on the pool (autocommit), none being active. */
  private async write<S extends EventSubject>(
    subject: S,
    payload: EventPayload<S>,
    alone = false,
  ): Promise<string> {
    const manager = alone ? this.txHost.tx : activeTransaction(this.txHost);
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

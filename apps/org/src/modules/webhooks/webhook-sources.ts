import { Injectable, type OnModuleInit } from '@nestjs/common';
import { webhookEventsFromBus, type EventEnvelope, type EventSubject } from '@wp/contracts';
import { EventBus, OutboxMessage } from '@wp/messaging';
import { DataSource, type EntitySubscriberInterface, type InsertEvent } from 'typeorm';
import { WebhookPublisher } from './webhook-publisher.js';

/** The other services' events org consumes only for webhooks, and each consumer's name. */
const CONSUMED: [EventSubject, string][] = [
  ['wallet.wallet.created', 'webhooks_wallet_created'],
  ['wallet.transaction.posted', 'webhooks_transaction_posted'],
  ['wallet.transfer_request.changed', 'webhooks_transfer_request_changed'],
];

/**
 * Where public events come from besides the audit log (docs/org.md § Webhooks, Sources):
 *
 * - org's own bus events (`org.organization.*`, `org.project.*`): every outbox row org writes
 *   passes a TypeORM insert subscriber, which maps it (`webhookEventsFromBus`) and publishes in
 *   the same transaction (the subscriber runs in the inserting command's async context, so the
 *   publisher finds that transaction through `TxHost`) — no call site has to remember it;
 * - the wallet's events, consumed by durable consumers of their own: the mapping and the
 *   deliveries are written in the consumer's transaction with its processed-event row, so a
 *   redelivery queues nothing twice.
 *
 * Audit entries (org's own, and those of auth and the wallet) are mapped where org stores
 * them (`AuditLogRepository`).
 */
@Injectable()
export class WebhookSources implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    private readonly publisher: WebhookPublisher,
  ) {}

  onModuleInit(): void {
    const publisher = this.publisher;
    const outboxSubscriber: EntitySubscriberInterface<OutboxMessage> = {
      listenTo: () => OutboxMessage,
      afterInsert: async (event: InsertEvent<OutboxMessage>) => {
        const row = event.entity;
        const envelope = {
          id: row.id,
          subject: row.subject as EventSubject,
          occurredAt: new Date(row.occurredAt).toISOString(),
          payload: row.payload,
        } as EventEnvelope;
        await publisher.publish(webhookEventsFromBus(envelope));
      },
    };
    this.dataSource.subscribers.push(outboxSubscriber);
    for (const [subject, name] of CONSUMED) {
      this.bus.on(subject, name, (event) => this.publisher.publish(webhookEventsFromBus(event)));
    }
  }
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The transactional outbox (docs/architecture.md § Data ownership and events): written in the same
 * transaction as the state change it announces; the relay publishes it to JetStream with
 * `Nats-Msg-Id` = `id`.
 */
@Entity('outbox_message')
@Index('outbox_message_unpublished_idx', ['seq'], { where: 'published_at IS NULL' })
@Index('outbox_message_published_at_idx', ['publishedAt'])
export class OutboxMessage {
  @PrimaryColumn('uuid')
  id!: string;

  /** Publication order. */
  @Column({ type: 'bigint', generated: 'increment', unique: true })
  seq!: string;

  @Column('text')
  subject!: string;

  @Column('jsonb')
  payload!: unknown;

  @Column('timestamptz')
  occurredAt!: Date;

  @Column('timestamptz', { nullable: true })
  publishedAt!: Date | null;
}

/** Events a consumer has handled: the idempotency record, written in the handler's transaction. */
@Entity('processed_event')
@Index('processed_event_processed_at_idx', ['processedAt'])
export class ProcessedEvent {
  @PrimaryColumn('text')
  consumer!: string;

  @PrimaryColumn('uuid')
  eventId!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  processedAt!: Date;
}

/** Entities every service that publishes or consumes events lists in its DataSource. */
export const MESSAGING_ENTITIES = [OutboxMessage, ProcessedEvent];

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Ingestion event ids already applied (`ingestion.yml`: "We use the event id … to deduplicate").
 * Forgotten after `ANALYTICS_EVENT_DEDUP_HOURS`.
 */
@Entity('ingestion_event')
@Index('ingestion_event_seen_at_idx', ['seenAt'])
export class IngestionEventEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @PrimaryColumn('text')
  eventId!: string;

  @Column('timestamptz', { default: () => 'now()' })
  seenAt!: Date;
}

import { column, table } from './columns.js';
import { entitySchemaOf } from './entity-schema.js';

/**
 * Ingestion event ids already applied (`ingestion.yml`: "We use the event id … to deduplicate").
 * Forgotten after `ANALYTICS_EVENT_DEDUP_HOURS`.
 */
export const INGESTION_EVENT_TABLE = table('ingestion_event', {
  projectId: column.integer().primary(),
  eventId: column.text().primary(),
  seenAt: column.timestamp().default(() => 'now()'),
});

export const IngestionEventEntity = entitySchemaOf(INGESTION_EVENT_TABLE, [
  { name: 'ingestion_event_seen_at_idx', columns: ['seenAt'] },
]);

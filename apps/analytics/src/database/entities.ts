import type { EntitySchema } from 'typeorm';
import { AnalyticsProjectEntity, ProjectApiKeyEntity } from '../modules/projects/project.entity.js';
import {
  DailyTraceRollupEntity,
  DailyUsageRollupEntity,
} from '../modules/storage/schema/daily-rollup.tables.js';
import { IngestionEventEntity } from '../modules/storage/schema/ingestion-event.table.js';
import { ModelPriceEntity } from '../modules/storage/schema/model-price.table.js';
import { ObservationEntity } from '../modules/storage/schema/observation.table.js';
import { ScoreEntity } from '../modules/storage/schema/score.table.js';
import { TraceEntity } from '../modules/storage/schema/trace.table.js';

/** Every entity of the analytics database (the platform adds the outbox tables). */
export const ANALYTICS_ENTITIES: ((new () => unknown) | EntitySchema)[] = [
  AnalyticsProjectEntity,
  ProjectApiKeyEntity,
  TraceEntity,
  ObservationEntity,
  ScoreEntity,
  IngestionEventEntity,
  DailyTraceRollupEntity,
  DailyUsageRollupEntity,
  ModelPriceEntity,
];

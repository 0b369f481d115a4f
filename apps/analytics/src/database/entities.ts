import { AnalyticsProjectEntity, ProjectApiKeyEntity } from '../modules/projects/project.entity.js';
import {
  DailyTraceRollupEntity,
  DailyUsageRollupEntity,
} from '../modules/storage/daily-rollup.entity.js';
import { IngestionEventEntity } from '../modules/storage/ingestion-event.entity.js';
import { ModelPriceEntity } from '../modules/storage/model-price.entity.js';
import { ObservationEntity } from '../modules/storage/observation.entity.js';
import { ScoreEntity } from '../modules/storage/score.entity.js';
import { TraceEntity } from '../modules/storage/trace.entity.js';

/** Every entity of the analytics database (the platform adds the outbox tables). */
export const ANALYTICS_ENTITIES: (new () => unknown)[] = [
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

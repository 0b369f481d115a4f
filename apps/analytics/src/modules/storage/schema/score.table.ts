import type { ScoreDataType, ScoreSource } from '../enums.js';
import { column, table } from './columns.js';
import { entitySchemaOf } from './entity-schema.js';

/**
 * A Langfuse score (`commons.yml` ScoreV1): the one description of the `score` table and of
 * `ScoreRecord` (see `columns.ts`).
 */
export const SCORE_TABLE = table('score', {
  projectId: column.integer().primary(),
  id: column.text().primary(),
  traceId: column.text().nullable(),
  observationId: column.text().nullable(),
  sessionId: column.text().nullable(),
  datasetRunId: column.text().nullable(),
  name: column.text(),
  /** Numeric value (NUMERIC, BOOLEAN 0/1, CATEGORICAL mapped value or 0); null for TEXT. */
  value: column.double().nullable(),
  stringValue: column.text().nullable(),
  dataType: column.text<ScoreDataType>(),
  source: column.text<ScoreSource>().default('API'),
  comment: column.text().nullable(),
  metadata: column.json().nullable(),
  configId: column.text().nullable(),
  queueId: column.text().nullable(),
  environment: column.text().default('default'),
  timestamp: column.timestamp(),
  createdAt: column.timestamp().default(() => 'now()'),
  updatedAt: column.timestamp().default(() => 'now()'),
});

export const ScoreEntity = entitySchemaOf(SCORE_TABLE, [
  { name: 'score_project_trace_idx', columns: ['projectId', 'traceId'] },
]);

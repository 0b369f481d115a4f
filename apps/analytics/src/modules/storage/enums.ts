/**
 * Langfuse's enumerations the stored records use (`fern/apis/server/definition/`): kept apart
 * from `records.ts` so that the table descriptions in `schema/` can name them while the records
 * are derived from those descriptions.
 */

/** Observation types of Langfuse (`ingestion.yml` ObservationType). */
export const OBSERVATION_TYPES = [
  'SPAN',
  'GENERATION',
  'EVENT',
  'AGENT',
  'TOOL',
  'CHAIN',
  'RETRIEVER',
  'EVALUATOR',
  'EMBEDDING',
  'GUARDRAIL',
] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export const OBSERVATION_LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'] as const;
export type ObservationLevel = (typeof OBSERVATION_LEVELS)[number];

export const SCORE_DATA_TYPES = [
  'NUMERIC',
  'BOOLEAN',
  'CATEGORICAL',
  'CORRECTION',
  'TEXT',
] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

export const SCORE_SOURCES = ['API', 'EVAL', 'ANNOTATION'] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];

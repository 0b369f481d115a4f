import { z } from 'zod';
import { datetimeField, limitField, listField, pageField, stringField } from '../common/query.js';

/**
 * `GET /api/public/metrics/daily` query (Langfuse metrics.yml GetDailyMetricsRequest). Our
 * contract (§ Analytics) makes `fromTimestamp` and `toTimestamp` required: 400 without them.
 */
export const DailyMetricsQuery = z
  .object({
    page: pageField,
    limit: limitField,
    traceName: stringField,
    userId: stringField,
    tags: listField,
    fromTimestamp: datetimeField.refine((v) => v !== undefined, {
      message: 'fromTimestamp is required (ISO 8601)',
    }),
    toTimestamp: datetimeField.refine((v) => v !== undefined, {
      message: 'toTimestamp is required (ISO 8601)',
    }),
  })
  .refine((q) => !q.fromTimestamp || !q.toTimestamp || q.fromTimestamp < q.toTimestamp, {
    message: 'fromTimestamp must be before toTimestamp',
    path: ['fromTimestamp'],
  });
export type DailyMetricsQuery = z.infer<typeof DailyMetricsQuery>;

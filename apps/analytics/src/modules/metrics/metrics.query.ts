import { z } from 'zod';
import {
  limitField,
  listField,
  pageField,
  requiredDatetimeField,
  stringField,
} from '../common/query.js';

/**
 * `GET /api/public/metrics/daily` query (Langfuse metrics.yml GetDailyMetricsRequest). Our
 * contract (docs/api.md § Analytics) makes `fromTimestamp` and `toTimestamp` required: 400 without
 * them.
 */
export const DailyMetricsQuery = z
  .object({
    page: pageField,
    limit: limitField,
    traceName: stringField,
    userId: stringField,
    tags: listField,
    fromTimestamp: requiredDatetimeField('fromTimestamp'),
    toTimestamp: requiredDatetimeField('toTimestamp'),
  })
  .refine((q) => q.fromTimestamp < q.toTimestamp, {
    message: 'fromTimestamp must be before toTimestamp',
    path: ['fromTimestamp'],
  });
export type DailyMetricsQuery = z.infer<typeof DailyMetricsQuery>;

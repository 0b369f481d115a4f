import { z } from 'zod';
import { TRACE_ORDER_FIELDS } from '../storage/records.js';
import { datetimeField, limitField, listField, pageField, stringField } from '../common/query.js';

/**
 * `GET /api/public/traces` query (trace.yml GetTracesRequest; docs/api.md § Analytics): page,
 * limit, userId, name, sessionId, fromTimestamp (inclusive), toTimestamp (exclusive), orderBy
 * `field.asc|desc`, tags (all must be present), and Langfuse's version, release, environment.
 */
export const ListTracesQuery = z.object({
  page: pageField,
  limit: limitField,
  userId: stringField,
  name: stringField,
  sessionId: stringField,
  version: stringField,
  release: stringField,
  environment: listField,
  fromTimestamp: datetimeField,
  toTimestamp: datetimeField,
  tags: listField,
  orderBy: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(
        new RegExp(`^(${TRACE_ORDER_FIELDS.join('|')})\\.(asc|desc)$`, 'i'),
        `expected [field].[asc|desc] with field one of ${TRACE_ORDER_FIELDS.join(', ')}`,
      )
      .transform((v) => {
        const [field, direction] = v.split('.');
        const f = TRACE_ORDER_FIELDS.find((x) => x.toLowerCase() === field.toLowerCase())!;
        return {
          field: f,
          direction: direction.toLowerCase() as 'asc' | 'desc',
        };
      })
      .optional(),
  ),
});
export type ListTracesQuery = z.infer<typeof ListTracesQuery>;

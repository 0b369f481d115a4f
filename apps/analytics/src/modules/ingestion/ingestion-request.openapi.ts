import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface.js';
import { z } from 'zod';
import { datetime, id } from './event-fields.schema.js';
import {
  CREATE_TYPES,
  legacyObservationBody,
  observationBody,
  scoreBody,
  traceBody,
  UPDATE_TYPES,
} from './ingestion-events.schema.js';

/** One event type of the batch with its body schema: the envelope `parseIngestionEvent` reads. */
function event(types: string[], body: z.ZodType) {
  return z.object({
    id,
    timestamp: datetime,
    type: z.enum(types as [string, ...string[]]),
    body,
    metadata: z.unknown().optional(),
  });
}

/**
 * The documented body of `POST /api/public/ingestion` (Langfuse IngestionRequest): `batch` of
 * events, each the envelope with the body schema of its `type` — the same zod schemas
 * `parseIngestionEvent` parses with, converted by zod's `toJSONSchema` (input side), so the
 * document cannot drift from what is accepted. The service parses each event on its own and
 * reports refusals per event in the 207 answer (docs/analytics.md § Ingestion semantics), so the request
 * as a whole only needs `batch` to be an array.
 */
export const INGESTION_REQUEST_SCHEMA = tidy(
  z.toJSONSchema(
    z.object({
      batch: z.array(
        z.union([
          event(['trace-create'], traceBody),
          event(['score-create'], scoreBody),
          event(['sdk-log'], z.object({ log: z.unknown() })),
          event(['observation-create', 'observation-update'], legacyObservationBody),
          event([...Object.keys(CREATE_TYPES), ...Object.keys(UPDATE_TYPES)], observationBody),
        ]),
      ),
      metadata: z.unknown().optional(),
    }),
    { io: 'input', unrepresentable: 'any' },
  ),
) as SchemaObject;

/**
 * The JSON Schema without what only restates or does not belong in an OpenAPI schema: the
 * `$schema` keyword, and the regular expression zod adds to every `format: date-time`.
 */
function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (typeof schema !== 'object' || schema === null) return schema;
  const entries = Object.entries(schema as Record<string, unknown>).filter(
    ([key]) =>
      key !== '$schema' &&
      !(key === 'pattern' && (schema as { format?: unknown }).format === 'date-time'),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, tidy(value)]));
}

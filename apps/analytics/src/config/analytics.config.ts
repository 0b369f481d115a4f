import { z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';

/**
 * Analytics service settings (docs/analytics.md § Configuration).
 *
 * - `ANALYTICS_REQUIRE_API_KEY`: require `Api-Key` on analytics paths too (docs/api.md
 *   § Authentication 1, literally); by default it is optional there but validated when sent.
 * - `ANALYTICS_INGESTION_MAX_BYTES`: Langfuse's batch limit (3.5 MB); larger bodies answer 413.
 * - `ANALYTICS_KEY_REFRESH_MS`: how often a replica re-reads project key changes that another
 *   replica consumed (the replica that consumes the event updates its own cache at once).
 * - `ANALYTICS_MODEL_PRICES`: JSON array overriding or extending the seeded model price table,
 *   e.g. `[{"modelName":"my-model","matchPattern":"(?i)^my-model$","prices":{"input":1e-6}}]`.
 * - `ANALYTICS_EVENT_DEDUP_HOURS`: how long an ingestion event id is remembered (dedupe window).
 * - `ANALYTICS_WRITE_MAX_EVENTS`: most events one group commit writes.
 * - `ANALYTICS_WRITE_CONCURRENCY`: group-commit transactions running at once per replica.
 */
export const analyticsConfigSchema = platformSchema.extend({
  ANALYTICS_PORT: env.port(8084),
  METRICS_PORT: env.listenPort(9084),
  ANALYTICS_HOST: env.string('0.0.0.0'),
  ANALYTICS_DATABASE_URL: databaseUrlField('analytics'),
  ANALYTICS_REQUIRE_API_KEY: env.bool(false),
  /** Langfuse batches reach 3.5 MB; the HTTP limit leaves room for OTLP bodies. */
  HTTP_BODY_LIMIT_BYTES: env.int(5 * 1_048_576, 1024),
  ANALYTICS_INGESTION_MAX_BYTES: env.int(Math.round(3.5 * 1_048_576), 1024),
  ANALYTICS_KEY_REFRESH_MS: env.int(2000, 100),
  ANALYTICS_MODEL_PRICES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return [] as unknown[];
      try {
        const parsed: unknown = JSON.parse(v);
        if (Array.isArray(parsed)) return parsed as unknown[];
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'expected a JSON array of model prices' });
      return z.NEVER;
    }),
  ANALYTICS_EVENT_DEDUP_HOURS: env.int(24, 1),
  ANALYTICS_WRITE_MAX_EVENTS: env.int(5000, 1),
  ANALYTICS_WRITE_CONCURRENCY: env.int(1, 1),
});
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

export const ANALYTICS_CONFIG = Symbol('ANALYTICS_CONFIG');

import { type z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';

/** Analytics service settings (README § Configuration). */
export const analyticsConfigSchema = platformSchema.extend({
  ANALYTICS_PORT: env.port(8084),
  ANALYTICS_HOST: env.string('0.0.0.0'),
  ANALYTICS_DATABASE_URL: databaseUrlField('analytics'),
  /** Require `Api-Key` on analytics paths too (contract § Authentication 1, literally). */
  ANALYTICS_REQUIRE_API_KEY: env.bool(false),
  /** Langfuse batches reach 3.5 MB. */
  HTTP_BODY_LIMIT_BYTES: env.int(5 * 1_048_576, 1024),
});
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

export const ANALYTICS_CONFIG = Symbol('ANALYTICS_CONFIG');

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@wp/platform';
import { AnalyticsAppModule } from './app.module.js';
import type { AnalyticsConfig } from './config/analytics.config.js';

/**
 * The analytics service application, not yet listening (main and tests). Its paths begin with
 * `/api/public` (contract § Versioning), so it has no `v1/api` prefix.
 */
export function createAnalyticsApp(config: AnalyticsConfig): Promise<NestFastifyApplication> {
  return createServiceApp(AnalyticsAppModule.forRoot(config), { config });
}

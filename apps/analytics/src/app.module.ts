import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfigModule } from '@wp/config';
import { PlatformModule } from '@wp/platform';
import { ANALYTICS_CONFIG, type AnalyticsConfig } from './config/analytics.config.js';
import { ANALYTICS_ENTITIES } from './database/entities.js';
import { ANALYTICS_MIGRATIONS } from './migrations/index.js';
import { IngestionModule } from './modules/ingestion/ingestion.module.js';
import { MetricsModule } from './modules/metrics/metrics.module.js';
import { OtelModule } from './modules/otel/otel.module.js';
import { ProjectsModule } from './modules/projects/projects.module.js';
import { TracesModule } from './modules/traces/traces.module.js';

/** The analytics service ({analytics_url}): Langfuse-compatible ingestion, traces, metrics. */
@Module({})
export class AnalyticsAppModule {
  static forRoot(config: AnalyticsConfig): DynamicModule {
    return {
      module: AnalyticsAppModule,
      imports: [
        AppConfigModule.forRoot(ANALYTICS_CONFIG, config),
        PlatformModule.forRoot({
          service: 'analytics',
          config,
          database: {
            url: config.ANALYTICS_DATABASE_URL,
            entities: ANALYTICS_ENTITIES,
            migrations: ANALYTICS_MIGRATIONS,
          },
          requireApiKey: config.ANALYTICS_REQUIRE_API_KEY,
        }),
        ProjectsModule,
        IngestionModule,
        OtelModule,
        TracesModule,
        MetricsModule,
      ],
    };
  }
}

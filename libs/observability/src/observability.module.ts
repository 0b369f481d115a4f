import { Module, type DynamicModule } from '@nestjs/common';
import { HealthModule } from './health.js';
import { LoggingModule, type LoggingOptions } from './logging.module.js';
import { MetricsModule, type MetricsOptions } from './metrics.js';

/** Logging, metrics and health for one service, in one import. */
@Module({})
export class ObservabilityModule {
  /** `metrics`: where `GET /metrics` listens (`METRICS_PORT`, `METRICS_HOST`). */
  static forRoot(options: LoggingOptions & { metrics?: MetricsOptions['listen'] }): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      imports: [
        LoggingModule.forRoot(options),
        MetricsModule.forRoot({ service: options.service, listen: options.metrics }),
        HealthModule.forRoot(),
      ],
      exports: [LoggingModule, MetricsModule, HealthModule],
    };
  }
}

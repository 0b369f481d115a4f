import { Module, type DynamicModule } from '@nestjs/common';
import { HealthModule } from './health.js';
import { LoggingModule, type LoggingOptions } from './logging.module.js';
import { MetricsModule } from './metrics.js';

/** Logging, metrics and health for one service, in one import. */
@Module({})
export class ObservabilityModule {
  static forRoot(options: LoggingOptions): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      imports: [
        LoggingModule.forRoot(options),
        MetricsModule.forRoot({ service: options.service }),
        HealthModule.forRoot(),
      ],
      exports: [LoggingModule, MetricsModule, HealthModule],
    };
  }
}

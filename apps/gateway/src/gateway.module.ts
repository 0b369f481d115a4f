import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfigModule } from '@wp/config';
import { ObservabilityModule } from '@wp/observability';
import { platformBackend } from '@wp/platform';
import { ApiKeyRegistry } from '@wp/security';
import { GATEWAY_CONFIG, type GatewayConfig } from './config/gateway.config.js';

/**
 * The gateway: one public origin for every service (docs/architecture.md § Shape). Its Nest part
 * serves health and metrics; the proxying itself is Fastify plugins installed by `installProxy`.
 * Readiness: the mode's store (Redis, or the platform database in embedded mode) answers and
 * every upstream's `/health/live` answers. The mode's stores come from `platformBackend`.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        AppConfigModule.forRoot(GATEWAY_CONFIG, config),
        ObservabilityModule.forRoot({
          service: 'gateway',
          level: config.LOG_LEVEL,
          format: config.LOG_FORMAT,
          nodeEnv: config.NODE_ENV,
          logRequests: config.LOG_REQUESTS,
          metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
        }),
        platformBackend(config, 'gateway').stores,
      ],
      providers: [ApiKeyRegistry],
    };
  }
}

import { Module, type DynamicModule, type OnModuleInit, Inject } from '@nestjs/common';
import { AppConfigModule } from '@wp/config';
import { ObservabilityModule, ReadinessRegistry } from '@wp/observability';
import { platformBackend } from '@wp/platform';
import { ApiKeyRegistry } from '@wp/security';
import { GATEWAY_CONFIG, type GatewayConfig } from './config/gateway.config.js';
import { proxyRoutes, upstreamUrl } from './proxy/routes.js';

/**
 * The gateway: one public origin for every service (docs/architecture.md § Shape). Its Nest part
 * serves health and metrics; the proxying itself is Fastify plugins installed by `installProxy`.
 * Readiness: the mode's store (Redis, or the platform database in embedded mode) answers and
 * every upstream's `/health/live` answers. The mode's stores come from `platformBackend`.
 */
@Module({})
export class GatewayModule implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        AppConfigModule.forRoot(GATEWAY_CONFIG, config),
        ObservabilityModule.forRoot({ service: 'gateway', level: config.LOG_LEVEL }),
        platformBackend(config, 'gateway').stores,
      ],
      providers: [ApiKeyRegistry],
    };
  }

  onModuleInit(): void {
    const services = new Set(proxyRoutes(this.config).map((r) => r.service));
    for (const service of services) {
      const url = new URL('/health/live', upstreamUrl(this.config, service)).toString();
      this.readiness.register(`upstream_${service}`, async () => {
        const res = await fetch(url, { signal: AbortSignal.timeout(1500) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
      });
    }
  }
}

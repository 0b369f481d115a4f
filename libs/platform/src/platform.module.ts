import { Module, type DynamicModule } from '@nestjs/common';
import type { PlatformConfig } from '@wp/config';
import { MESSAGING_ENTITIES, MessagingModule } from '@wp/messaging';
import { ObservabilityModule } from '@wp/observability';
import { DatabaseModule, type DatabaseOptions } from '@wp/persistence';
import { parsePublicKeys, SecurityModule } from '@wp/security';
import { ACTIVITY_OPTIONS, ActivityRecorder } from './activity-recorder.js';
import { platformBackend } from './backend/platform-backend.js';

export interface PlatformModuleOptions {
  /** Service name: logs, metrics, durable consumer names, RPC queue group. */
  service: string;
  config: PlatformConfig;
  /** The service's own database; its entities get the outbox tables added. */
  database: Omit<DatabaseOptions, 'applicationName'>;
  /** `ADMIN_ACCESS_TOKENS` (wallet). */
  adminAccessTokens?: string[];
  /** false: Api-Key optional but validated when sent (analytics). */
  requireApiKey?: boolean;
  /** Hold agent tokens to `@AgentAccess()` routes of their own project (org, wallet). */
  confineAgents?: boolean;
  /** Sentinel Pass activity buffer tuning (flush period, batch size, bound). */
  activity?: { flushIntervalMs?: number; batchSize?: number; maxBuffered?: number };
}

/**
 * Everything a domain service stands on, wired the same way in every app: JSON logs, metrics and
 * health; its PostgreSQL database; the mode's stores (Api-Key registry, deny-list, rate limits)
 * and transports (events, request/reply) — Redis and NATS, or the platform database in embedded
 * mode (`platformBackend`, docs/architecture.md § Two modes); Api-Key and bearer guards;
 * recording of Sentinel Pass agent activity (`ActivityRecorder`).
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const { config, service } = options;
    const backend = platformBackend(config, service);
    return {
      module: PlatformModule,
      global: true,
      imports: [
        ObservabilityModule.forRoot({
          service,
          level: config.LOG_LEVEL,
          format: config.LOG_FORMAT,
          nodeEnv: config.NODE_ENV,
          logRequests: config.LOG_REQUESTS,
          metrics: { port: config.METRICS_PORT, host: config.METRICS_HOST },
        }),
        DatabaseModule.forRoot({
          ...options.database,
          entities: [...(options.database.entities as unknown[]), ...MESSAGING_ENTITIES] as never,
          applicationName: service,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        backend.stores,
        MessagingModule.forRoot({
          namespace: config.EVENTS_NAMESPACE,
          service,
          transports: backend.transports(),
        }),
        SecurityModule.forRoot({
          jwtPublicKeys: parsePublicKeys(config.JWT_PUBLIC_KEY),
          jwtIssuer: config.JWT_ISSUER,
          jwtAudience: config.JWT_AUDIENCE,
          accessTokenMaxLifetimeSeconds: config.ACCESS_TOKEN_MAX_LIFETIME_SECONDS,
          adminAccessTokens: options.adminAccessTokens ?? [],
          requireApiKey: options.requireApiKey ?? true,
          confineAgents: options.confineAgents ?? false,
        }),
      ],
      providers: [
        { provide: ACTIVITY_OPTIONS, useValue: { service, ...options.activity } },
        ActivityRecorder,
      ],
      exports: [ActivityRecorder],
    };
  }
}

import { createPublicKey } from 'node:crypto';
import { Module, type DynamicModule } from '@nestjs/common';
import type { PlatformConfig } from '@wp/config';
import { MESSAGING_ENTITIES, MessagingModule } from '@wp/messaging';
import { ObservabilityModule } from '@wp/observability';
import { DatabaseModule, RedisModule, type DatabaseOptions } from '@wp/persistence';
import { SecurityModule } from '@wp/security';
import { ACTIVITY_OPTIONS, ActivityRecorder } from './activity-recorder.js';

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
 * health; its PostgreSQL database; Redis; NATS events and request/reply; Api-Key and bearer
 * guards; recording of Sentinel Pass agent activity (`ActivityRecorder`).
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const { config, service } = options;
    return {
      module: PlatformModule,
      global: true,
      imports: [
        ObservabilityModule.forRoot({ service, level: config.LOG_LEVEL }),
        DatabaseModule.forRoot({
          ...options.database,
          entities: [...(options.database.entities as unknown[]), ...MESSAGING_ENTITIES] as never,
          applicationName: service,
        }),
        RedisModule.forRoot({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX }),
        MessagingModule.forRoot({
          url: config.NATS_URL,
          namespace: config.EVENTS_NAMESPACE,
          service,
        }),
        SecurityModule.forRoot({
          jwtPublicKey: createPublicKey(config.JWT_PUBLIC_KEY),
          jwtIssuer: config.JWT_ISSUER,
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

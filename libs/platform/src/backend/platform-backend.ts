import type { DynamicModule } from '@nestjs/common';
import type { PlatformConfig } from '@wp/config';
import { NatsTransportModule, PostgresTransportModule } from '@wp/messaging';
import { createPlatformPool, Redis } from '@wp/persistence';
import { PostgresApiKeyStore, RedisApiKeyStore, type ApiKeyStore } from '@wp/security';

import { PostgresStoresModule, RedisStoresModule } from './stores.modules.js';

/** The settings that choose and reach the backend of a mode. */
export type BackendConfig = Pick<
  PlatformConfig,
  | 'PLATFORM_MODE'
  | 'PLATFORM_DATABASE_URL'
  | 'REDIS_URL'
  | 'REDIS_KEY_PREFIX'
  | 'REDIS_COMMAND_TIMEOUT_MS'
  | 'NATS_URL'
  | 'NATS_STREAM_REPLICAS'
>;

/** What a process stands on besides its own database, for one mode. */
export interface PlatformBackend {
  /**
   * Global module providing `ApiKeyStore`, `RevocationStore`, `RateLimiterFactory`,
   * `TenantVersionStore`, `CacheRebuilder` and `EDGE_RATE_LIMIT_STORE`.
   */
  stores: DynamicModule;
  /** Module providing `EventTransport` and `RpcTransport`, for `MessagingModule`. */
  transports: () => DynamicModule;
}

/**
 * THE place where the mode is chosen (docs/architecture.md § Two modes): `services` puts the
 * stores in Redis and the transports on NATS; `embedded` puts both in the platform database.
 * Nothing else in the platform looks at `PLATFORM_MODE`: services inject the abstract stores and
 * transports.
 */
export function platformBackend(config: BackendConfig, service: string): PlatformBackend {
  if (config.PLATFORM_MODE === 'embedded') {
    const url = config.PLATFORM_DATABASE_URL;
    return {
      stores: PostgresStoresModule.forRoot({ url, service }),
      transports: () => PostgresTransportModule.forRoot({ url, service }),
    };
  }
  return {
    stores: RedisStoresModule.forRoot({
      url: config.REDIS_URL,
      keyPrefix: config.REDIS_KEY_PREFIX,
      commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    }),
    transports: () =>
      NatsTransportModule.forRoot({
        url: config.NATS_URL,
        service,
        streamReplicas: config.NATS_STREAM_REPLICAS,
      }),
  };
}

/**
 * The mode's Api-Key store outside Nest (the operator CLI), with what closes its connection.
 */
export function openApiKeyStore(config: BackendConfig): {
  store: ApiKeyStore;
  close: () => Promise<void>;
} {
  if (config.PLATFORM_MODE === 'embedded') {
    const pool = createPlatformPool({ url: config.PLATFORM_DATABASE_URL, service: 'cli' });
    return { store: new PostgresApiKeyStore(pool), close: () => pool.end() };
  }
  const redis = new Redis(config.REDIS_URL, { keyPrefix: config.REDIS_KEY_PREFIX });
  return {
    store: new RedisApiKeyStore(redis),
    close: () => {
      redis.disconnect();
      return Promise.resolve();
    },
  };
}

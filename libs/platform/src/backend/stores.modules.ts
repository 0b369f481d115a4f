import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformDatabaseModule, REDIS, RedisModule, type Redis } from '@wp/persistence';
import {
  ApiKeyStore,
  CacheRebuilder,
  NoCacheRebuilder,
  RedisCacheRebuilder,
  PostgresApiKeyStore,
  PostgresRateLimiterFactory,
  PostgresRevocationStore,
  PostgresTenantVersionStore,
  RateLimiterFactory,
  RedisApiKeyStore,
  RedisRateLimiterFactory,
  RedisRevocationStore,
  RedisTenantVersionStore,
  RevocationStore,
  TenantVersionStore,
} from '@wp/security';

/**
 * How the gateway's coarse per-address limit (@fastify/rate-limit) keeps its counters: the
 * options it gets spread in. `{ redis }` shares them between gateway replicas; `{}` keeps them in
 * the gateway process (docs/decisions.md § Two modes).
 */
export const EDGE_RATE_LIMIT_STORE = Symbol('EDGE_RATE_LIMIT_STORE');
export type EdgeRateLimitStore = { redis?: Redis };

const STORE_TOKENS = [
  ApiKeyStore,
  CacheRebuilder,
  RevocationStore,
  RateLimiterFactory,
  TenantVersionStore,
  EDGE_RATE_LIMIT_STORE,
];

/**
 * Services mode's stores: Redis (`REDIS_URL`, keys under `REDIS_KEY_PREFIX`), failing fast, a
 * cache the writers rebuild from their databases (`CacheRebuilder`; docs/architecture.md § Redis
 * is a cache).
 */
@Module({})
export class RedisStoresModule {
  static forRoot(options: {
    url: string;
    keyPrefix: string;
    commandTimeoutMs?: number;
  }): DynamicModule {
    return {
      module: RedisStoresModule,
      global: true,
      imports: [RedisModule.forRoot(options)],
      providers: [
        { provide: ApiKeyStore, useClass: RedisApiKeyStore },
        { provide: CacheRebuilder, useClass: RedisCacheRebuilder },
        { provide: RevocationStore, useClass: RedisRevocationStore },
        { provide: RateLimiterFactory, useClass: RedisRateLimiterFactory },
        { provide: TenantVersionStore, useClass: RedisTenantVersionStore },
        {
          provide: EDGE_RATE_LIMIT_STORE,
          inject: [REDIS],
          useFactory: (redis: Redis): EdgeRateLimitStore => ({ redis }),
        },
      ],
      exports: STORE_TOKENS,
    };
  }
}

/** Embedded mode's stores: tables of the platform database (`PLATFORM_DATABASE_URL`). */
@Module({})
export class PostgresStoresModule {
  static forRoot(options: { url: string; service: string }): DynamicModule {
    return {
      module: PostgresStoresModule,
      global: true,
      imports: [PlatformDatabaseModule.forRoot(options)],
      providers: [
        { provide: ApiKeyStore, useClass: PostgresApiKeyStore },
        { provide: CacheRebuilder, useClass: NoCacheRebuilder },
        { provide: RevocationStore, useClass: PostgresRevocationStore },
        { provide: RateLimiterFactory, useClass: PostgresRateLimiterFactory },
        { provide: TenantVersionStore, useClass: PostgresTenantVersionStore },
        { provide: EDGE_RATE_LIMIT_STORE, useValue: {} satisfies EdgeRateLimitStore },
      ],
      exports: STORE_TOKENS,
    };
  }
}

import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ReadinessRegistry } from '@wp/observability';
import { Redis } from 'ioredis';

export const REDIS = Symbol('REDIS');

export interface RedisOptions {
  url: string;
  /** Prepended to every key (ioredis `keyPrefix`), e.g. `wp:`. */
  keyPrefix: string;
}

/**
 * One ioredis client per service (`@Inject(REDIS) redis: Redis`). Keys are prefixed with
 * `REDIS_KEY_PREFIX`, so test runs and deployments sharing a Redis never collide.
 */
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forRoot(options: RedisOptions): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        {
          provide: REDIS,
          inject: [ReadinessRegistry],
          useFactory: (readiness: ReadinessRegistry) => {
            const redis = new Redis(options.url, {
              keyPrefix: options.keyPrefix,
              maxRetriesPerRequest: 2,
              enableOfflineQueue: true,
              lazyConnect: false,
            });
            redis.on('error', () => undefined); // reconnects by itself; readiness reports it
            readiness.register('redis', async () => {
              await redis.ping();
            });
            return redis;
          },
        },
      ],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

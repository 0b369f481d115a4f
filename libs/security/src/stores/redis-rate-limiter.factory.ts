import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterFactory, type RateLimiterSpec } from './rate-limiter.factory.js';

/** Services mode: limiters in Redis (keys `<REDIS_KEY_PREFIX><keyPrefix>:<key>`). */
@Injectable()
export class RedisRateLimiterFactory extends RateLimiterFactory {
  constructor(@Inject(REDIS) private readonly redis: Redis) {
    super();
  }

  create(spec: RateLimiterSpec): RateLimiterAbstract {
    return new RateLimiterRedis({ storeClient: this.redis, ...spec });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_POOL } from '@wp/persistence';
import type { Pool } from 'pg';
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterFactory, type RateLimiterSpec } from './rate-limiter.factory.js';

/**
 * Embedded mode: limiters in the platform database's `rate_limit` table (created by its
 * migration, so `tableCreated`); rate-limiter-flexible purges expired rows every 5 minutes.
 */
@Injectable()
export class PostgresRateLimiterFactory extends RateLimiterFactory {
  constructor(@Inject(PLATFORM_POOL) private readonly pool: Pool) {
    super();
  }

  create(spec: RateLimiterSpec): RateLimiterAbstract {
    return new RateLimiterPostgres({
      storeClient: this.pool,
      storeType: 'pool',
      tableName: 'rate_limit',
      tableCreated: true,
      ...spec,
    });
  }
}

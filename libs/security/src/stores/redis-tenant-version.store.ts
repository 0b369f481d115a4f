import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { TenantVersionStore } from './tenant-version.store.js';

/** `tenant_version:<tenantId>` (under `REDIS_KEY_PREFIX`): the required version. */
const key = (tenantId: string) => `tenant_version:${tenantId}`;

/** SET only when greater, atomically (a Lua script runs alone on the Redis server). */
const RAISE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > c then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

/** Services mode: one Redis string per organization, raised with a compare-and-set script. */
@Injectable()
export class RedisTenantVersionStore extends TenantVersionStore {
  constructor(@Inject(REDIS) private readonly redis: Redis) {
    super();
  }

  async raise(tenantId: string, version: number): Promise<void> {
    await this.redis.eval(RAISE, 1, key(tenantId), String(version));
  }

  async current(tenantId: string): Promise<number> {
    return Number((await this.redis.get(key(tenantId))) ?? 0);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import type { CacheWriter } from './cache-rebuilder.js';
import { REDIS_HASHES, rebuiltMarker, restoreGreatest } from './redis-layout.js';
import { TenantVersionStore, type TenantVersionEntry } from './tenant-version.store.js';

/**
 * Sets the field only when greater, atomically (a Lua script runs alone on the Redis server),
 * and the previous release's `tenant_version:<id>` key the same way, for the processes still
 * reading it during a rolling update. KEYS: hash, legacy key. ARGV: field, version.
 */
const RAISE = `local v = tonumber(ARGV[2])
if v > tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if v > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], ARGV[2]) end
return 0`;

const MARKER = rebuiltMarker('org');

/**
 * Services mode: the hash `tenant_versions` (organization id → required version, marker `~org`
 * set by org's rebuild), raised with a compare-and-set script. A read is one `HMGET` of the
 * version and the marker.
 */
@Injectable()
export class RedisTenantVersionStore extends TenantVersionStore {
  constructor(@Inject(REDIS) private readonly redis: Redis) {
    super();
  }

  async raise(tenantId: string, version: number): Promise<void> {
    await this.redis.eval(
      RAISE,
      2,
      REDIS_HASHES.tenantVersions,
      `tenant_version:${tenantId}`,
      tenantId,
      String(version),
    );
  }

  async current(tenantId: string): Promise<number | null> {
    const [version, complete] = await this.redis.hmget(
      REDIS_HASHES.tenantVersions,
      tenantId,
      MARKER,
    );
    if (complete === null) return null;
    return Number(version ?? 0);
  }

  async restore(writer: CacheWriter, entries: TenantVersionEntry[]): Promise<void> {
    const pairs = entries.map((e): [string, number] => [e.tenantId, e.version]);
    await restoreGreatest(this.redis, REDIS_HASHES.tenantVersions, writer, pairs);
  }
}

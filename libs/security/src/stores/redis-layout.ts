import type { Redis } from '@wp/persistence';
import type { CacheWriter } from './cache-rebuilder.js';

/**
 * The Redis hashes of services mode (under `REDIS_KEY_PREFIX`; docs/architecture.md § Redis is a
 * cache). Each holds its entries and, beside them, one marker field per writer that rebuilt it
 * (`~auth`, `~org`). A reader reads the markers it needs in the same `HMGET` as the entry: a hash
 * emptied by a restart, `FLUSHALL` or an eviction (a hash is evicted whole) has lost its
 * markers too, so "not there" is never taken for "not denied".
 */
export const REDIS_HASHES = {
  /** SHA-256 hex of an Api-Key → client application id; marker `~auth`. */
  apiKeys: 'api_keys',
  /** `jti:<id>` / `sid:<id>` → expiry, epoch seconds; markers `~auth`, `~org`. */
  denyList: 'deny_list',
  /** organization id → required permission version; marker `~org`. */
  tenantVersions: 'tenant_versions',
} as const;

/** The marker field of `writer` in a hash of {@link REDIS_HASHES}. */
export function rebuiltMarker(writer: CacheWriter): string {
  return `~${writer}`;
}

/** Channels are not prefixed by ioredis: the key prefix keeps deployments apart. */
export function prefixedChannel(redis: Redis, channel: string): string {
  return `${redis.options?.keyPrefix ?? ''}${channel}`;
}

/** Fields written per `HSET` when restoring (keeps one command short). */
export const RESTORE_CHUNK = 500;

/**
 * Restores `field → number` pairs (ARGV after the marker: field, value, …), each only when greater
 * than what is there; with ARGV[1] non-empty sets that marker field afterwards.
 */
export const RESTORE_GREATEST = `for i = 3, #ARGV, 2 do
  local current = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  if tonumber(ARGV[i + 1]) > current then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 0`;

/**
 * Restores `pairs` into `hash` with {@link RESTORE_GREATEST} in chunks, the last one setting
 * `writer`'s marker (value: now, epoch ms): the marker appears only once every entry is there.
 */
export async function restoreGreatest(
  redis: Redis,
  hash: string,
  writer: CacheWriter,
  pairs: [string, number][],
): Promise<void> {
  for (let start = 0; start < pairs.length || start === 0; start += RESTORE_CHUNK) {
    const chunk = pairs.slice(start, start + RESTORE_CHUNK);
    const last = start + RESTORE_CHUNK >= pairs.length;
    const args = [last ? rebuiltMarker(writer) : '', String(Date.now())];
    for (const [field, value] of chunk) args.push(field, String(value));
    await redis.eval(RESTORE_GREATEST, 1, hash, ...args);
  }
}

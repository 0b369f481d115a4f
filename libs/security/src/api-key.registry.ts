import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@wp/http';
import { REDIS, type Redis } from '@wp/persistence';

/** Redis hash (under `REDIS_KEY_PREFIX`) mapping SHA-256(Api-Key) hex → client application id. */
export const API_KEYS_REDIS_KEY = 'api_keys';
const POSITIVE_TTL_MS = 5000;
const MAX_CACHED = 10_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Resolves an `Api-Key` to its client application (ARCHITECTURE § 3). Auth maintains the Redis
 * hash; every service reads it, with a 5-second positive cache so the hot path rarely leaves the
 * process. Unknown keys are never cached, so a new key works everywhere at once; a revoked key
 * stops working within 5 seconds.
 */
@Injectable()
export class ApiKeyRegistry {
  private readonly cache = new Map<string, { appId: string; until: number }>();

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** The application id for the key, or null when the key is unknown. */
  async resolve(apiKey: string): Promise<string | null> {
    const hash = hashApiKey(apiKey);
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.appId;
    let appId: string | null;
    try {
      appId = await this.redis.hget(API_KEYS_REDIS_KEY, hash);
    } catch {
      throw new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
        detail: 'The application key could not be checked. Retry shortly.',
      });
    }
    if (appId === null) return null;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(hash, { appId, until: now + POSITIVE_TTL_MS });
    return appId;
  }

  /** Publishes the full set of valid key hashes (auth only). Removes hashes not in the set. */
  async publish(entries: { keyHash: string; appId: string }[]): Promise<void> {
    const current = await this.redis.hkeys(API_KEYS_REDIS_KEY);
    const wanted = new Map(entries.map((e) => [e.keyHash, e.appId]));
    const stale = current.filter((h) => !wanted.has(h));
    const tx = this.redis.multi();
    if (stale.length > 0) tx.hdel(API_KEYS_REDIS_KEY, ...stale);
    if (wanted.size > 0) tx.hset(API_KEYS_REDIS_KEY, Object.fromEntries(wanted));
    await tx.exec();
  }

  /** Adds or removes one key hash (auth only). */
  async add(keyHash: string, appId: string): Promise<void> {
    await this.redis.hset(API_KEYS_REDIS_KEY, keyHash, appId);
  }

  async remove(keyHash: string): Promise<void> {
    await this.redis.hdel(API_KEYS_REDIS_KEY, keyHash);
    this.cache.delete(keyHash);
  }
}

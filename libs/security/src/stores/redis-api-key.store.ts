import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { CacheNotRebuiltError } from './cache-rebuilder.js';
import { ApiKeyStore, type ApiKeyEntry } from './api-key.store.js';
import { REDIS_HASHES, rebuiltMarker } from './redis-layout.js';

/** Redis hash (under `REDIS_KEY_PREFIX`) mapping SHA-256(Api-Key) hex → client application id. */
export const API_KEYS_REDIS_KEY = REDIS_HASHES.apiKeys;

const MARKER = rebuiltMarker('auth');

/**
 * Services mode: the registry is one Redis hash that auth maintains and every service reads,
 * with auth's marker `~auth` set by each full write ({@link replaceAll}: auth's rebuild and its
 * periodic sync). A look-up is one `HMGET` of the key and the marker: an unknown key is refused
 * only while the marker vouches that the registry is complete.
 */
@Injectable()
export class RedisApiKeyStore extends ApiKeyStore {
  constructor(@Inject(REDIS) private readonly redis: Redis) {
    super();
  }

  async find(keyHash: string): Promise<string | null> {
    const [appId, complete] = await this.redis.hmget(API_KEYS_REDIS_KEY, keyHash, MARKER);
    if (appId !== null) return appId;
    if (complete === null) throw new CacheNotRebuiltError(['auth']);
    return null;
  }

  async replaceAll(entries: ApiKeyEntry[]): Promise<void> {
    const current = await this.redis.hkeys(API_KEYS_REDIS_KEY);
    const wanted = new Map(entries.map((e) => [e.keyHash, e.appId]));
    const stale = current.filter((h) => !wanted.has(h) && !h.startsWith('~'));
    const tx = this.redis.multi();
    if (stale.length > 0) tx.hdel(API_KEYS_REDIS_KEY, ...stale);
    tx.hset(API_KEYS_REDIS_KEY, { ...Object.fromEntries(wanted), [MARKER]: String(Date.now()) });
    const results = await tx.exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (!results || failed) throw failed ?? new Error('registry transaction aborted');
  }

  async put(entry: ApiKeyEntry): Promise<void> {
    await this.redis.hset(API_KEYS_REDIS_KEY, entry.keyHash, entry.appId);
  }

  async delete(keyHash: string): Promise<void> {
    await this.redis.hdel(API_KEYS_REDIS_KEY, keyHash);
  }
}

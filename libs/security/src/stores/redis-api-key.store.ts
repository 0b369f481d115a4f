import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { ApiKeyStore, type ApiKeyEntry } from './api-key.store.js';

/** Redis hash (under `REDIS_KEY_PREFIX`) mapping SHA-256(Api-Key) hex → client application id. */
export const API_KEYS_REDIS_KEY = 'api_keys';

/** Services mode: the registry is one Redis hash that auth maintains and every service reads. */
@Injectable()
export class RedisApiKeyStore extends ApiKeyStore {
  constructor(@Inject(REDIS) private readonly redis: Redis) {
    super();
  }

  find(keyHash: string): Promise<string | null> {
    return this.redis.hget(API_KEYS_REDIS_KEY, keyHash);
  }

  async replaceAll(entries: ApiKeyEntry[]): Promise<void> {
    const current = await this.redis.hkeys(API_KEYS_REDIS_KEY);
    const wanted = new Map(entries.map((e) => [e.keyHash, e.appId]));
    const stale = current.filter((h) => !wanted.has(h));
    const tx = this.redis.multi();
    if (stale.length > 0) tx.hdel(API_KEYS_REDIS_KEY, ...stale);
    if (wanted.size > 0) tx.hset(API_KEYS_REDIS_KEY, Object.fromEntries(wanted));
    await tx.exec();
  }

  async put(entry: ApiKeyEntry): Promise<void> {
    await this.redis.hset(API_KEYS_REDIS_KEY, entry.keyHash, entry.appId);
  }

  async delete(keyHash: string): Promise<void> {
    await this.redis.hdel(API_KEYS_REDIS_KEY, keyHash);
  }
}

import { createHash } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { storeUnavailable } from '@wp/http';
import { ApiKeyStore } from './stores/api-key.store.js';
import { CacheNotRebuiltError, CacheRebuilder } from './stores/cache-rebuilder.js';

const POSITIVE_TTL_MS = 5000;
const MAX_CACHED = 10_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Resolves an `Api-Key` to its client application (docs/architecture.md § Identity and access).
 * Auth maintains the registry (an {@link ApiKeyStore}: Redis, or the platform database in
 * embedded mode); every service reads it, with a 5-second positive cache so the hot path rarely
 * leaves the process. Unknown keys are never cached, so a new key works everywhere at once; a
 * revoked key stops working within 5 seconds. A store that does not answer, or cannot vouch
 * that a key is unknown (Redis emptied, auth's rebuild not done: docs/architecture.md § Redis is
 * a cache), is a 503 with `Retry-After`, never a 403 — and in the latter case auth is asked to
 * rebuild.
 */
@Injectable()
export class ApiKeyRegistry {
  private readonly cache = new Map<string, { appId: string; until: number }>();

  constructor(
    private readonly store: ApiKeyStore,
    @Optional() private readonly rebuilder?: CacheRebuilder,
  ) {}

  /**
   * The application id for the key, or null when the key is unknown.
   * @throws DomainError 503 `UNAVAILABLE` (`Retry-After: 1`) when the registry cannot answer
   */
  async resolve(apiKey: string): Promise<string | null> {
    const hash = hashApiKey(apiKey);
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.appId;
    let appId: string | null;
    try {
      appId = await this.store.find(hash);
    } catch (error) {
      if (error instanceof CacheNotRebuiltError) this.rebuilder?.request(error.writers);
      throw storeUnavailable('The application key could not be checked');
    }
    if (appId === null) return null;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(hash, { appId, until: now + POSITIVE_TTL_MS });
    return appId;
  }

  /**
   * The application id for the key when the 5-second positive cache holds it, else undefined
   * (ask {@link resolve}): lets a hot path answer without a promise. Never touches the store.
   */
  cached(apiKey: string): string | undefined {
    const hit = this.cache.get(hashApiKey(apiKey));
    return hit !== undefined && hit.until > Date.now() ? hit.appId : undefined;
  }

  /** Publishes the full set of valid key hashes (auth only). Removes hashes not in the set. */
  async publish(entries: { keyHash: string; appId: string }[]): Promise<void> {
    await this.store.replaceAll(entries);
  }

  /** Adds or removes one key hash (auth only). */
  async add(keyHash: string, appId: string): Promise<void> {
    await this.store.put({ keyHash, appId });
  }

  async remove(keyHash: string): Promise<void> {
    await this.store.delete(keyHash);
    this.cache.delete(keyHash);
  }
}

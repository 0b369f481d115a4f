/** One registered Api-Key: the SHA-256 hex of the key and its client application id. */
export interface ApiKeyEntry {
  keyHash: string;
  appId: string;
}

/**
 * Where the Api-Key registry lives (docs/architecture.md § Two modes): a Redis hash in services
 * mode, rebuilt by auth from its `client_application` table when lost (§ Redis is a cache); the
 * platform database's `api_key` table in embedded mode. `ApiKeyRegistry` caches on top. Every
 * method rejects when the store does not answer.
 */
export abstract class ApiKeyStore {
  /**
   * The application id of a key hash, or null when unknown.
   * @throws CacheNotRebuiltError when the key is not there and the registry cannot vouch that
   *   it is unknown (emptied, not rebuilt by auth yet)
   */
  abstract find(keyHash: string): Promise<string | null>;
  /**
   * Makes the registry exactly `entries` (adds, updates, removes the rest) and marks it complete:
   * auth's rebuild.
   */
  abstract replaceAll(entries: ApiKeyEntry[]): Promise<void>;
  abstract put(entry: ApiKeyEntry): Promise<void>;
  abstract delete(keyHash: string): Promise<void>;
}

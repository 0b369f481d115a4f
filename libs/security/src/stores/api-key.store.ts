/** One registered Api-Key: the SHA-256 hex of the key and its client application id. */
export interface ApiKeyEntry {
  keyHash: string;
  appId: string;
}

/**
 * Where the Api-Key registry lives (docs/architecture.md § Two modes): a Redis hash in services
 * mode, the platform database's `api_key` table in embedded mode. `ApiKeyRegistry` caches on top.
 * Every method rejects when the store does not answer.
 */
export abstract class ApiKeyStore {
  /** The application id of a key hash, or null when unknown. */
  abstract find(keyHash: string): Promise<string | null>;
  /** Makes the registry exactly `entries` (adds, updates, removes the rest). */
  abstract replaceAll(entries: ApiKeyEntry[]): Promise<void>;
  abstract put(entry: ApiKeyEntry): Promise<void>;
  abstract delete(keyHash: string): Promise<void>;
}

import type { CacheWriter } from './cache-rebuilder.js';

/** What a deny-list entry names: one access token (`jti`) or a whole session (`sid`). */
export type RevocationKind = 'jti' | 'sid';

/** One deny-list entry: refused until `expiresAt` (epoch seconds). */
export interface RevocationEntry {
  kind: RevocationKind;
  id: string;
  expiresAt: number;
}

/**
 * Where the access-token deny-list and its announcements live (docs/architecture.md § Two
 * modes): a Redis hash and a pub/sub channel in services mode, rebuilt from the writers'
 * databases when lost (§ Redis is a cache); the platform database's `revocation` table and
 * `NOTIFY` in embedded mode. `RevocationList` builds its cache and the "refused everywhere within
 * 1 s" bound on top, which needs from the channel only that one sender's messages arrive in the
 * order they were sent, after what they announce is stored. Every method rejects when the store
 * does not answer.
 */
export abstract class RevocationStore {
  /**
   * Deny-lists `kind:id` for `ttlSeconds` (never shortening a longer entry) and announces
   * `announcement` on the channel, both or neither.
   */
  abstract deny(
    kind: RevocationKind,
    id: string,
    ttlSeconds: number,
    announcement: string,
  ): Promise<void>;
  /**
   * Whether the token id or the session id is deny-listed now.
   * @param writers whose entries could name them (`DENY_LIST_WRITERS`)
   * @throws CacheNotRebuiltError when the store cannot vouch for a "no": their parts are missing
   */
  abstract isDenied(jti: string, sid: string, writers: readonly CacheWriter[]): Promise<boolean>;
  /**
   * Writes `writer`'s entries (from its database; longer entries already there are kept) and
   * then marks its part rebuilt.
   */
  abstract restore(writer: CacheWriter, entries: RevocationEntry[]): Promise<void>;
  /** Sends `message` on the announcement channel (heartbeats, rebuild requests). */
  abstract announce(message: string): Promise<void>;
  /**
   * Delivers every announcement to `onMessage` from now on (reconnecting by itself).
   * @returns stops the delivery
   */
  abstract subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>>;
}

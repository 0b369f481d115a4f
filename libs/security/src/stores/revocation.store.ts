/** What a deny-list entry names: one access token (`jti`) or a whole session (`sid`). */
export type RevocationKind = 'jti' | 'sid';

/**
 * Where the access-token deny-list and its announcements live (docs/architecture.md § Two
 * modes): Redis keys with a TTL and a pub/sub channel in services mode; the platform database's
 * `revocation` table and `NOTIFY` in embedded mode. `RevocationList` builds its cache and the
 * "refused everywhere within 1 s" bound on top, which needs from the channel only that one
 * sender's messages arrive in the order they were sent, after what they announce is stored.
 * Every method rejects when the store does not answer.
 */
export abstract class RevocationStore {
  /**
   * Deny-lists `kind:id` for `ttlSeconds` and announces `announcement` on the channel, both or
   * neither.
   */
  abstract deny(
    kind: RevocationKind,
    id: string,
    ttlSeconds: number,
    announcement: string,
  ): Promise<void>;
  /** Whether the token id or the session id is deny-listed now. */
  abstract isDenied(jti: string, sid: string): Promise<boolean>;
  /** Sends `message` on the announcement channel (heartbeats). */
  abstract announce(message: string): Promise<void>;
  /**
   * Delivers every announcement to `onMessage` from now on (reconnecting by itself).
   * @returns stops the delivery
   */
  abstract subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>>;
}

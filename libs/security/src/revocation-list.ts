import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';

const JTI = (jti: string) => `revoked:jti:${jti}`;
const SID = (sid: string) => `revoked:sid:${sid}`;
/** Pub/sub channel (under `REDIS_KEY_PREFIX`) on which every revocation is announced. */
export const REVOCATIONS_CHANNEL = 'revocations';
/** How long a "not revoked" answer may be reused (ARCHITECTURE § 3: refused within 1 s). */
export const DEFAULT_REVOCATION_CACHE_MS = 1000;
const MAX_CACHED = 50_000;

/**
 * The access token deny-list (ARCHITECTURE § 3 "Revocation"): a revoked token id (`jti`) or
 * session (`sid`, a refresh token family) is kept in Redis until the token would have expired
 * anyway. Every service checks it on every authenticated request, so a logout takes effect
 * everywhere.
 *
 * A "not revoked" answer is remembered per (`jti`, `sid`) for `revocationCacheMs` (default
 * 1000 ms, the bound ARCHITECTURE allows), which saves the Redis round trip of most requests.
 * Revocations are also announced on the `revocations` pub/sub channel, and every process drops
 * its remembered answers when one arrives, so in practice a revoked token is refused at once
 * everywhere; the 1 s bound only matters for a message lost in flight. Remembering is on only
 * while this process's subscription is live (off from a disconnect until it is subscribed
 * again), and an answer read while an announcement arrived is not remembered.
 */
@Injectable()
export class RevocationList implements OnModuleInit, OnApplicationShutdown {
  private readonly cacheMs: number;
  /** `jti\nsid` → epoch ms until which "not revoked" may be reused. */
  private readonly notRevoked = new Map<string, number>();
  private subscriber?: Redis;
  private live = false;
  /** Bumped on every announcement and subscription change: answers read across it are not kept. */
  private generation = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Optional() @Inject(SECURITY_OPTIONS) options?: Pick<SecurityOptions, 'revocationCacheMs'>,
  ) {
    this.cacheMs = options?.revocationCacheMs ?? DEFAULT_REVOCATION_CACHE_MS;
  }

  /** Subscribes to revocation announcements (no cache when Redis cannot be duplicated). */
  onModuleInit(): void {
    if (this.cacheMs <= 0 || typeof this.redis.duplicate !== 'function') return;
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    const channel = this.channel();
    subscriber.on('error', () => undefined); // reconnects by itself
    subscriber.on('close', () => this.invalidate(false));
    subscriber.on('ready', () => {
      // ioredis re-subscribes after a reconnect; remembering resumes once that is confirmed.
      subscriber.subscribe(channel).then(
        () => this.invalidate(true),
        () => this.invalidate(false),
      );
    });
    subscriber.on('message', (from: string) => {
      if (from === channel) this.invalidate(this.live);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.invalidate(false);
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  /** Revokes one access token until `expiresAt` (epoch seconds). */
  async revokeToken(jti: string, expiresAt: number): Promise<void> {
    await this.redis.set(JTI(jti), '1', 'EX', ttl(expiresAt));
    await this.announce(`jti:${jti}`);
  }

  /** Revokes every access token of a session for `ttlSeconds` (the access token lifetime). */
  async revokeSession(sid: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(SID(sid), '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)));
    await this.announce(`sid:${sid}`);
  }

  /** Whether the token or its session is deny-listed (Redis, or a "no" at most 1 s old). */
  async isRevoked(jti: string, sid: string): Promise<boolean> {
    const key = `${jti}\n${sid}`;
    const now = Date.now();
    if (this.live) {
      const until = this.notRevoked.get(key);
      if (until !== undefined && until > now) return false;
    }
    const generation = this.generation;
    const revoked = (await this.redis.exists(JTI(jti), SID(sid))) > 0;
    if (!revoked && this.live && generation === this.generation) {
      if (this.notRevoked.size >= MAX_CACHED) this.notRevoked.clear();
      this.notRevoked.set(key, now + this.cacheMs);
    }
    return revoked;
  }

  /** Tells every process (this one first) to forget its "not revoked" answers. */
  private async announce(what: string): Promise<void> {
    this.invalidate(this.live);
    await this.redis.publish(this.channel(), what);
  }

  private invalidate(live: boolean): void {
    this.generation++;
    this.notRevoked.clear();
    this.live = live;
  }

  /** Channels are not prefixed by ioredis: the key prefix keeps deployments apart. */
  private channel(): string {
    return `${this.redis.options?.keyPrefix ?? ''}${REVOCATIONS_CHANNEL}`;
  }
}

function ttl(expiresAt: number): number {
  return Math.max(1, Math.ceil(expiresAt - Date.now() / 1000));
}

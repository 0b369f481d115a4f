import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { RevocationStore, type RevocationKind } from './revocation.store.js';

/** Pub/sub channel (under `REDIS_KEY_PREFIX`) on which every revocation is announced. */
export const REVOCATIONS_CHANNEL = 'revocations';

const key = (kind: RevocationKind, id: string) => `revoked:${kind}:${id}`;

/**
 * Services mode: `revoked:jti:<id>` / `revoked:sid:<id>` keys expiring with the token, announced
 * on the `revocations` channel in the same MULTI. Redis delivers one channel's messages in
 * publish order.
 */
@Injectable()
export class RedisRevocationStore extends RevocationStore {
  constructor(@Inject(REDIS) private readonly redis: Redis) {
    super();
  }

  async deny(
    kind: RevocationKind,
    id: string,
    ttlSeconds: number,
    announcement: string,
  ): Promise<void> {
    const results = await this.redis
      .multi()
      .set(key(kind, id), '1', 'EX', ttlSeconds)
      .publish(this.channel(), announcement)
      .exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (!results || failed) throw failed ?? new Error('deny-list transaction aborted');
  }

  async isDenied(jti: string, sid: string): Promise<boolean> {
    return (await this.redis.exists(key('jti', jti), key('sid', sid))) > 0;
  }

  async announce(message: string): Promise<void> {
    await this.redis.publish(this.channel(), message);
  }

  subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const subscriber = this.redis.duplicate();
    const channel = this.channel();
    subscriber.on('error', () => undefined); // reconnects (and re-subscribes) by itself
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) onMessage(message);
    });
    subscriber.subscribe(channel).catch(() => undefined); // not awaited: Redis may be down
    return Promise.resolve(async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    });
  }

  /** Channels are not prefixed by ioredis: the key prefix keeps deployments apart. */
  private channel(): string {
    return `${this.redis.options?.keyPrefix ?? ''}${REVOCATIONS_CHANNEL}`;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';
import { CacheNotRebuiltError, type CacheWriter } from './cache-rebuilder.js';
import { prefixedChannel, REDIS_HASHES, rebuiltMarker, restoreGreatest } from './redis-layout.js';
import { RevocationStore, type RevocationEntry, type RevocationKind } from './revocation.store.js';

/** Pub/sub channel (under `REDIS_KEY_PREFIX`) on which every revocation is announced. */
export const REVOCATIONS_CHANNEL = 'revocations';

const field = (kind: RevocationKind, id: string) => `${kind}:${id}`;

/**
 * One script, so both or neither: keeps the longer of the entry's expiries, deletes up to 32
 * expired entries met by a cursor kept in the hash (`~purge`; the hash stays as small as what is
 * live, without a timer), writes the previous release's `revoked:<kind>:<id>` key for the
 * processes still reading it during a rolling update, and publishes the announcement.
 * KEYS: hash, legacy key. ARGV: field, expiry (epoch s), now (epoch s), ttl s, channel, message.
 */
const DENY = `local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > current then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
local page = redis.call('HSCAN', KEYS[1], redis.call('HGET', KEYS[1], '~purge') or '0', 'COUNT', 32)
local now = tonumber(ARGV[3])
for i = 1, #page[2], 2 do
  local name = page[2][i]
  if string.sub(name, 1, 1) ~= '~' and (tonumber(page[2][i + 1]) or 0) <= now then
    redis.call('HDEL', KEYS[1], name)
  end
end
redis.call('HSET', KEYS[1], '~purge', page[1])
if redis.call('TTL', KEYS[2]) < tonumber(ARGV[4]) then redis.call('SET', KEYS[2], '1', 'EX', ARGV[4]) end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 0`;

/**
 * Services mode: the hash `deny_list` (`jti:<id>` / `sid:<id>` → expiry, epoch seconds; markers
 * `~auth`, `~org` of the writers that rebuilt it: redis-layout.ts), announced on the
 * `revocations` channel by the same script. Redis delivers one channel's messages in publish
 * order. A check is one `HMGET` of both entries and the markers it needs: an entry whose expiry
 * has passed is no entry; a missing marker means the hash was emptied and that writer has not
 * rebuilt it yet, so the answer cannot be vouched for (`CacheNotRebuiltError`).
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
    const now = Math.floor(Date.now() / 1000);
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    await this.redis.eval(
      DENY,
      2,
      REDIS_HASHES.denyList,
      `revoked:${kind}:${id}`,
      field(kind, id),
      String(now + ttl),
      String(now),
      String(ttl),
      this.channel(),
      announcement,
    );
  }

  async isDenied(jti: string, sid: string, writers: readonly CacheWriter[]): Promise<boolean> {
    const [byToken, bySession, auth, org] = await this.redis.hmget(
      REDIS_HASHES.denyList,
      field('jti', jti),
      field('sid', sid),
      rebuiltMarker('auth'),
      rebuiltMarker('org'),
    );
    const now = Date.now() / 1000;
    if (Number(byToken ?? 0) > now || Number(bySession ?? 0) > now) return true;
    const missing = writers.filter((w) => (w === 'auth' ? auth : org) === null);
    if (missing.length > 0) throw new CacheNotRebuiltError(missing);
    return false;
  }

  async restore(writer: CacheWriter, entries: RevocationEntry[]): Promise<void> {
    const pairs = entries.map((e): [string, number] => [field(e.kind, e.id), e.expiresAt]);
    pairs.push(...(await this.legacyEntries()));
    await restoreGreatest(this.redis, REDIS_HASHES.denyList, writer, pairs);
  }

  /**
   * The previous release's `revoked:<kind>:<id>` keys, as hash entries: every rebuild takes them
   * in, so the upgrade to the hash loses no revocation made before it (those are in no writer's
   * database yet). Goes with the legacy write in {@link DENY}.
   */
  private async legacyEntries(): Promise<[string, number][]> {
    const prefix = this.redis.options?.keyPrefix ?? '';
    const now = Date.now();
    const pairs: [string, number][] = [];
    let cursor = '0';
    do {
      // SCAN's pattern and answer are not prefixed by ioredis; PTTL's key is.
      const [next, keys] = await this.redis.scan(
        cursor,
        'MATCH',
        `${prefix}revoked:*`,
        'COUNT',
        500,
      );
      cursor = next;
      const names = keys.map((k) => k.slice(prefix.length));
      const ttls = names.length > 0 ? await Promise.all(names.map((k) => this.redis.pttl(k))) : [];
      names.forEach((name, i) => {
        const ms = ttls[i];
        if (ms > 0) pairs.push([name.slice('revoked:'.length), Math.ceil((now + ms) / 1000)]);
      });
    } while (cursor !== '0');
    return pairs;
  }

  async announce(message: string): Promise<void> {
    await this.redis.publish(this.channel(), message);
  }

  subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>> {
    // Its own connection, keeping SUBSCRIBE queued until Redis answers however long that takes
    // (the service connection fails fast instead); ioredis subscribes again after reconnects.
    const subscriber = this.redis.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
    });
    const channel = this.channel();
    subscriber.on('error', () => undefined); // reconnects (and re-subscribes) by itself
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) onMessage(message);
    });
    subscriber.subscribe(channel).catch(() => undefined); // not awaited: Redis may be down
    // Closed at once: a QUIT would wait behind a SUBSCRIBE queued while Redis is away.
    return Promise.resolve(() => {
      subscriber.disconnect();
      return Promise.resolve();
    });
  }

  private channel(): string {
    return prefixedChannel(this.redis, REVOCATIONS_CHANNEL);
  }
}

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RevocationList } from './revocation-list.js';

/**
 * The deny-list against the real Redis: "not revoked" answers are reused for at most
 * `revocationCacheMs`, and a revocation in one process (one `RevocationList` with its own Redis
 * client) is refused by the others at once through the announcement channel.
 */
describe('RevocationList (real Redis)', () => {
  const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const prefix = `rl${randomBytes(4).toString('hex')}:`;
  const clients: Redis[] = [];
  const lists: RevocationList[] = [];

  /** One service process: its own Redis client and deny-list. */
  async function service(cacheMs = 1000): Promise<{ list: RevocationList; calls: () => number }> {
    const redis = new Redis(url, { keyPrefix: prefix });
    clients.push(redis);
    let calls = 0;
    const exists = redis.exists.bind(redis);
    redis.exists = ((...keys: string[]) => {
      calls++;
      return exists(...keys);
    }) as typeof redis.exists;
    const list = new RevocationList(redis, { revocationCacheMs: cacheMs });
    lists.push(list);
    list.onModuleInit();
    await until(() => (list as unknown as { live: boolean }).live, 2000);
    return { list, calls: () => calls };
  }

  afterAll(async () => {
    for (const list of lists) await list.onApplicationShutdown();
    const keys = await clients[0].keys(`${prefix}*`);
    if (keys.length > 0) await clients[0].del(...keys.map((k) => k.slice(prefix.length)));
    for (const redis of clients) await redis.quit();
  });

  it('reuses a "not revoked" answer instead of asking Redis again', async () => {
    const { list, calls } = await service();
    expect(await list.isRevoked('jti-a', 'sid-a')).toBe(false);
    expect(await list.isRevoked('jti-a', 'sid-a')).toBe(false);
    expect(calls()).toBe(1);
    expect(await list.isRevoked('jti-b', 'sid-a')).toBe(false);
    expect(calls()).toBe(2);
  });

  it('refuses a token revoked in this process at once', async () => {
    const { list } = await service();
    expect(await list.isRevoked('jti-c', 'sid-c')).toBe(false);
    await list.revokeToken('jti-c', Math.floor(Date.now() / 1000) + 60);
    expect(await list.isRevoked('jti-c', 'sid-c')).toBe(true);
  });

  it('refuses in another process a token or a session revoked elsewhere, well within 1 s', async () => {
    const here = await service();
    const there = await service();
    expect(await here.list.isRevoked('jti-d', 'sid-d')).toBe(false);
    expect(await here.list.isRevoked('jti-e', 'sid-e')).toBe(false);
    expect(await here.list.isRevoked('jti-f', 'sid-e')).toBe(false);

    const started = Date.now();
    await there.list.revokeToken('jti-d', Math.floor(Date.now() / 1000) + 60);
    await until(() => here.list.isRevoked('jti-d', 'sid-d'), 1000);
    await there.list.revokeSession('sid-e', 60);
    await until(() => here.list.isRevoked('jti-e', 'sid-e'), 1000);
    expect(await here.list.isRevoked('jti-f', 'sid-e')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await here.list.isRevoked('jti-g', 'sid-g')).toBe(false);
  });

  it('without an announcement (lost in flight) still refuses within revocationCacheMs', async () => {
    const { list } = await service(300);
    expect(await list.isRevoked('jti-h', 'sid-h')).toBe(false);
    await clients[0].set('revoked:jti:jti-h', '1', 'EX', 60); // deny-listed, not announced
    expect(await list.isRevoked('jti-h', 'sid-h')).toBe(false); // the remembered answer
    await new Promise((resolve) => setTimeout(resolve, 320));
    expect(await list.isRevoked('jti-h', 'sid-h')).toBe(true);
  });

  it('asks Redis every time with revocationCacheMs 0', async () => {
    const redis = new Redis(url, { keyPrefix: prefix });
    clients.push(redis);
    const list = new RevocationList(redis, { revocationCacheMs: 0 });
    list.onModuleInit();
    const exists = jest.spyOn(redis, 'exists');
    expect(await list.isRevoked('jti-i', 'sid-i')).toBe(false);
    expect(await list.isRevoked('jti-i', 'sid-i')).toBe(false);
    expect(exists).toHaveBeenCalledTimes(2);
  });
});

/** Polls `check` every 5 ms until it is true; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

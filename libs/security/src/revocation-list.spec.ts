import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RevocationList } from './revocation-list.js';

/**
 * The deny-list against the real Redis: "not revoked" answers are remembered while the
 * process's own heartbeats come back through the announcement channel, a revocation in one
 * process (one `RevocationList` with its own Redis client) is refused by the others at once, and
 * when announcements stop arriving a revoked token is still refused within `revocationCacheMs`.
 */
describe('RevocationList (real Redis)', () => {
  const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const prefix = `rl${randomBytes(4).toString('hex')}:`;
  const clients: Redis[] = [];
  const lists: RevocationList[] = [];
  const exp = () => Math.floor(Date.now() / 1000) + 600;

  /** One service process: its own Redis client and deny-list, heartbeats flowing. */
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
    await until(() => performance.now() - internals(list).freshAsOf < cacheMs, 2000);
    return { list, calls: () => calls };
  }

  afterAll(async () => {
    for (const list of lists) await list.onApplicationShutdown();
    const keys = await clients[0].keys(`${prefix}*`);
    if (keys.length > 0) await clients[0].del(...keys.map((k) => k.slice(prefix.length)));
    for (const redis of clients) await redis.quit();
  });

  it('remembers a "not revoked" answer, also beyond 1 s while its heartbeats come back', async () => {
    const { list, calls } = await service();
    expect(await list.isRevoked('jti-a', 'sid-a', exp())).toBe(false);
    expect(await list.isRevoked('jti-a', 'sid-a', exp())).toBe(false);
    expect(calls()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await list.isRevoked('jti-a', 'sid-a', exp())).toBe(false);
    expect(calls()).toBe(1);
    expect(await list.isRevoked('jti-b', 'sid-a', exp())).toBe(false);
    expect(calls()).toBe(2);
  });

  it('never remembers an answer for a token without a future expiry', async () => {
    const { list, calls } = await service();
    await list.isRevoked('jti-x', 'sid-x');
    await list.isRevoked('jti-x', 'sid-x', Math.floor(Date.now() / 1000) - 1);
    await list.isRevoked('jti-x', 'sid-x');
    expect(calls()).toBe(3);
  });

  it('refuses a token revoked in this process at once', async () => {
    const { list } = await service();
    expect(await list.isRevoked('jti-c', 'sid-c', exp())).toBe(false);
    await list.revokeToken('jti-c', exp());
    expect(await list.isRevoked('jti-c', 'sid-c', exp())).toBe(true);
  });

  it('refuses in another process a token or a session revoked elsewhere, well within 1 s', async () => {
    const here = await service();
    const there = await service();
    expect(await here.list.isRevoked('jti-d', 'sid-d', exp())).toBe(false);
    expect(await here.list.isRevoked('jti-e', 'sid-e', exp())).toBe(false);
    expect(await here.list.isRevoked('jti-f', 'sid-e', exp())).toBe(false);
    expect(await here.list.isRevoked('jti-g', 'sid-g', exp())).toBe(false);
    const before = here.calls();

    const started = Date.now();
    await there.list.revokeToken('jti-d', exp());
    await until(() => here.list.isRevoked('jti-d', 'sid-d', exp()), 1000);
    await there.list.revokeSession('sid-e', 60);
    await until(() => here.list.isRevoked('jti-e', 'sid-e', exp()), 1000);
    expect(await here.list.isRevoked('jti-f', 'sid-e', exp())).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // other tokens keep their remembered answer
    const calls = here.calls();
    expect(await here.list.isRevoked('jti-g', 'sid-g', exp())).toBe(false);
    expect(here.calls()).toBe(calls);
    expect(calls).toBeGreaterThan(before);
  });

  it('when announcements stop arriving, still refuses a revoked token within revocationCacheMs', async () => {
    const here = await service(300);
    const there = await service(300);
    expect(await here.list.isRevoked('jti-h', 'sid-h', exp())).toBe(false);
    // the subscription stops delivering without this process noticing: no announcement, no heartbeat
    await internals(here.list).subscriber.unsubscribe();
    const started = performance.now();
    await there.list.revokeToken('jti-h', exp());
    await until(() => here.list.isRevoked('jti-h', 'sid-h', exp()), 1000);
    expect(performance.now() - started).toBeLessThan(300 + 100);
  });

  it('forgets every remembered answer when heartbeats come back after a gap', async () => {
    const here = await service(300);
    const there = await service(300);
    expect(await here.list.isRevoked('jti-k', 'sid-k', exp())).toBe(false);
    const subscriber = internals(here.list).subscriber;
    await subscriber.unsubscribe(); // announcements and heartbeats lost from here on
    await there.list.revokeToken('jti-k', exp());
    await new Promise((resolve) => setTimeout(resolve, 350));
    await subscriber.subscribe(`${prefix}revocations`); // back, the revocation never seen
    await until(() => performance.now() - internals(here.list).freshAsOf < 300, 1000);
    expect(await here.list.isRevoked('jti-k', 'sid-k', exp())).toBe(true);
  });

  it('asks Redis every time with revocationCacheMs 0', async () => {
    const redis = new Redis(url, { keyPrefix: prefix });
    clients.push(redis);
    const list = new RevocationList(redis, { revocationCacheMs: 0 });
    list.onModuleInit();
    const exists = jest.spyOn(redis, 'exists');
    expect(await list.isRevoked('jti-i', 'sid-i', exp())).toBe(false);
    expect(await list.isRevoked('jti-i', 'sid-i', exp())).toBe(false);
    expect(exists).toHaveBeenCalledTimes(2);
  });
});

function internals(list: RevocationList): { freshAsOf: number; subscriber: Redis } {
  return list as unknown as { freshAsOf: number; subscriber: Redis };
}

/** Polls `check` every 5 ms until it is true; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

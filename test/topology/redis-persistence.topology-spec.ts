import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { REDIS_HASHES, rebuiltMarker } from '@wp/security';
import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';
import { walletJourneys, type Account } from '../support/wallet-journeys.js';
import { PrivateRedis } from '../support/private-redis.js';
import { PRODUCTION_CONF, productionRedisSettings } from './support/production-redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long Redis stays down between its stop and its start, ms. */
const DOWN_MS = 1000;

/** Writes per redis-benchmark run of the cost per write. */
const BENCH_WRITES = 4000;

/** A claim of an access token's payload (`sid`, `jti`). */
function claim(token: string, name: 'sid' | 'jti'): string {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'))[name];
}

/**
 * Production's Redis (deploy/redis/production.conf: append-only file, fsync every second) under
 * restarts (docs/operations.md § Production topology under faults): a token is logged out, five
 * wrong passwords exhaust a login window, then Redis is stopped at once — by SIGTERM, then by
 * SIGKILL, then by SIGKILL with `appendfsync always` set (`CONFIG SET`, until that kill) — and
 * started again on the same directory. What the file kept is read before the platform could
 * rebuild anything; the revoked token stays refused by the other services throughout, and the
 * platform serves again without a restart of its own. Last, what `always` costs per write
 * against `everysec` (redis-benchmark SET, one client and 16).
 */
describe('Redis with persistence: restarts keep the deny-list and the rate-limit counters', () => {
  let redis: PrivateRedis;
  let stack: PlatformStack;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    // Production's settings (append-only file); the data directory outlives the restarts.
    redis = await PrivateRedis.start({ config: PRODUCTION_CONF });
    stack = await PlatformStack.start({ REDIS_URL: redis.url });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
    process.stdout.write(`topology figures (Redis): ${JSON.stringify(figures, null, 2)}\n`);
  });

  /** A client of the test's own, with the stack's key prefix; `run` then disconnects. */
  const withClient = async <T>(run: (client: Redis) => Promise<T>): Promise<T> => {
    const client = new Redis(redis.url, {
      keyPrefix: stack.env.env['REDIS_KEY_PREFIX'],
      lazyConnect: true,
    });
    try {
      await client.connect();
      return await run(client);
    } finally {
      client.disconnect();
    }
  };

  it('runs the Redis of deploy/redis/production.conf', () => {
    expect(productionRedisSettings()).toMatchObject({
      appendonly: 'yes',
      appendfsync: expect.stringMatching(/^(everysec|always)$/),
      'maxmemory-policy': 'noeviction',
    });
  });

  it.each([
    ['SIGTERM', 'everysec'],
    ['SIGKILL', 'everysec'],
    ['SIGKILL', 'always'],
  ] as const)(
    'after %s and a restart (appendfsync %s) the revoked token stays refused everywhere and nothing was forgotten',
    async (signal, appendfsync) => {
      // The file's setting after every start; `always` only until this case's kill.
      await withClient((c) => c.config('SET', 'appendfsync', appendfsync));
      expect(await withClient((c) => c.config('GET', 'appendfsync'))).toEqual([
        'appendfsync',
        appendfsync,
      ]);
      const label = `${signal}-${appendfsync}`;
      const j = walletJourneys(() => stack);
      const valid = await j.signUp(`valid-${label}`);
      const revoked: Account = await j.signUp(`revoked-${label}`);
      const guessed = await j.signUp(`guessed-${label}`);
      const organizations = (who: Account) =>
        stack.request('GET', '/v1/api/organizations', { token: who.token });
      const wallets = (who: Account) =>
        stack.request('GET', '/v1/api/wallets?entity_type=user', { token: who.token });
      const wrongLogin = () =>
        stack.request('POST', '/v1/api/oauth/token', {
          body: { username: guessed.email, password: 'not the password' },
        });

      expect(
        (await stack.request('GET', '/v1/api/oauth/token/revoke', { token: revoked.token })).status,
      ).toBe(200);
      expect((await organizations(revoked)).status).toBe(401);
      expect((await wallets(revoked)).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await wrongLogin()).status).toBe(401);
      expect((await wrongLogin()).status).toBe(429);
      await withClient((c) => c.set('topology:probe', label));

      // Stopped right after the last write: nothing waits for the next fsync.
      const answers: { status: number; retryAfter: string | null; revoked: boolean }[] = [];
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          for (const [who, isRevoked] of [
            [valid, false],
            [revoked, true],
          ] as const) {
            const res = await (isRevoked ? wallets(who) : organizations(who));
            answers.push({
              status: res.status,
              retryAfter: res.headers.get('retry-after'),
              revoked: isRevoked,
            });
          }
          await sleep(20);
        }
      })();
      const stoppedAt = Date.now();
      await redis.kill(signal);
      await sleep(DOWN_MS);
      await redis.resume();
      const resumedAt = Date.now();

      // What the append-only file kept, read at once (before any rebuild could write it again).
      const kept = await withClient(async (c) => ({
        probe: await c.get('topology:probe'),
        revoked:
          (await c.hexists(REDIS_HASHES.denyList, `sid:${claim(revoked.token, 'sid')}`)) +
          (await c.hexists(REDIS_HASHES.denyList, `jti:${claim(revoked.token, 'jti')}`)),
        markers: await c.hmget(REDIS_HASHES.denyList, rebuiltMarker('auth'), rebuiltMarker('org')),
      }));
      expect(kept.probe).toBe(label);
      expect(kept.revoked).toBeGreaterThan(0);
      expect(kept.markers.every((m) => m !== null)).toBe(true);

      await waitFor(async () => (await organizations(valid)).status === 200, {
        timeoutMs: 10_000,
        intervalMs: 20,
        what: 'the platform serving again',
      });
      const servingAfterMs = Date.now() - resumedAt;
      await sleep(500);
      watching = false;
      await watcher;

      // The revoked token: refused by org and by the wallet; the login window still closed.
      expect((await organizations(revoked)).status).toBe(401);
      expect((await wallets(revoked)).status).toBe(401);
      expect((await wrongLogin()).status).toBe(429);

      // While Redis was away: the revoked token never let through; every refusal retryable.
      const revokedAccepted = answers.filter((a) => a.revoked && a.status < 300);
      const notRetryable = answers.filter(
        (a) =>
          !(a.status === 503 && a.retryAfter) && !(a.revoked ? a.status === 401 : a.status === 200),
      );
      figures[label] = {
        downMs: resumedAt - stoppedAt,
        servingAfterMs,
        answers: answers.length,
        retryable503: answers.filter((a) => a.status === 503).length,
        revokedAccepted: revokedAccepted.length,
        notRetryable: notRetryable.length,
        kept,
      };
      expect(revokedAccepted).toEqual([]);
      expect(notRetryable).toEqual([]);
    },
    60_000,
  );

  it('measures what appendfsync always costs per write against everysec', () => {
    const bench = (clients: number) => {
      const r = spawnSync(
        'redis-benchmark',
        ['-p', String(redis.port), '-t', 'set', '-n', String(BENCH_WRITES), '-c', String(clients)],
        { encoding: 'utf8', timeout: 60_000 },
      );
      if (r.status !== 0) throw new Error(`redis-benchmark: ${r.stderr || r.error}`);
      const perSecond = Number(/([\d.]+) requests per second/.exec(r.stdout)?.[1]);
      const p50 =
        /latency summary \(msec\):\s+avg\s+min\s+p50[^\n]*\n\s+([\d.]+)\s+[\d.]+\s+([\d.]+)/.exec(
          r.stdout,
        );
      return { perSecond, avgMs: Number(p50?.[1]), p50Ms: Number(p50?.[2]) };
    };
    const cost: Record<string, unknown> = {};
    for (const appendfsync of ['everysec', 'always', 'everysec'] as const) {
      spawnSync('redis-cli', [
        '-p',
        String(redis.port),
        'config',
        'set',
        'appendfsync',
        appendfsync,
      ]);
      const one = bench(1);
      const sixteen = bench(16);
      cost[appendfsync === 'everysec' && cost.everysec ? 'everysec again' : appendfsync] = {
        oneClient: one,
        sixteenClients: sixteen,
      };
      expect(one.perSecond).toBeGreaterThan(0);
    }
    figures.costPerWrite = cost;
  }, 120_000);
});

/** @integration PostgreSQL and Redis: the revocation stores themselves, against the servers */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  createPlatformPool,
  dropDatabase,
  ensureDatabase,
  PgListener,
  platformDataSource,
  runMigrations,
  type TxHost,
} from '@wp/persistence';
import { describeWithServers } from '@wp/testing';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import { RevocationList } from './revocation-list.js';
import type { CacheWriter } from './stores/cache-rebuilder.js';
import { PostgresRevocationStore } from './stores/postgres-revocation.store.js';
import { RedisRevocationStore } from './stores/redis-revocation.store.js';
import type { RevocationStore } from './stores/revocation.store.js';

/** The writers whose entries the checks below depend on (user tokens: auth). */
const WRITERS: CacheWriter[] = ['auth'];

/**
 * The writer's transaction as `recordRevocation` uses it: the durable record is auth's and org's
 * table, covered by the cross-service tests; here only the stores are under test.
 */
const recorded: unknown[][] = [];
const journal = {
  isTransactionActive: () => true,
  tx: {
    query: (_sql: string, params?: unknown[]) => {
      recorded.push(params ?? []);
      return Promise.resolve([]);
    },
  } as unknown as EntityManager,
} as unknown as TxHost;

/** A deny-list store of one service process, and the means to close it. */
interface StoreOfProcess {
  store: RevocationStore;
  close: () => Promise<void>;
}

/** Where the deny-list lives: services mode (Redis) or embedded mode (the platform database). */
interface Backend {
  name: string;
  setup(): Promise<void>;
  /** A store with connections of its own, as one service process has. */
  open(): StoreOfProcess;
  /** Services mode: deletes every key, as a Redis restarted empty or `FLUSHALL` would. */
  empty?(): Promise<void>;
  teardown(): Promise<void>;
}

function redisBackend(): Backend {
  const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const prefix = `rl${randomBytes(4).toString('hex')}:`;
  const admin = new Redis(url, { lazyConnect: true });
  return {
    name: 'services mode: Redis',
    setup: async () => {
      await admin.connect();
      // auth's rebuild at its boot: the part of the deny-list the checks below depend on
      const redis = new Redis(url, { keyPrefix: prefix });
      await new RedisRevocationStore(redis).restore('auth', []);
      redis.disconnect();
    },
    empty: async () => {
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
    },
    open: () => {
      const redis = new Redis(url, { keyPrefix: prefix });
      return {
        store: new RedisRevocationStore(redis),
        close: () => redis.quit().then(() => undefined),
      };
    },
    teardown: async () => {
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      await admin.quit();
    },
  };
}

function postgresBackend(): Backend {
  const server = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432';
  const url = `${server}/wp_platform_rl${randomBytes(4).toString('hex')}`;
  return {
    name: 'embedded mode: platform database',
    setup: async () => {
      await ensureDatabase(url);
      await runMigrations(platformDataSource(url));
    },
    open: () => {
      const pool: Pool = createPlatformPool({ url, service: 'test' });
      const listener = new PgListener(url, 'test:listen');
      const ready = listener.start();
      const store = new PostgresRevocationStore(pool, listener);
      const subscribe = store.subscribe.bind(store);
      store.subscribe = async (onMessage) => {
        await ready;
        return subscribe(onMessage);
      };
      return {
        store,
        close: async () => {
          await store.onApplicationShutdown();
          await listener.close();
          await pool.end();
        },
      };
    },
    teardown: () => dropDatabase(url),
  };
}

/**
 * The deny-list against the real stores of both modes: "not revoked" answers are remembered
 * while the process's own heartbeats come back through the announcement channel, a revocation
 * in one process (one `RevocationList` with connections of its own) is refused by the others at
 * once, and when announcements stop arriving a revoked token is still refused within
 * `revocationCacheMs`.
 */
function revocationListSuite(backend: Backend): void {
  const opened: StoreOfProcess[] = [];
  const lists: RevocationList[] = [];
  const exp = () => Math.floor(Date.now() / 1000) + 600;

  beforeAll(() => backend.setup());
  afterAll(async () => {
    for (const list of lists) await list.onApplicationShutdown();
    for (const { close } of opened) await close();
    await backend.teardown();
  });

  /**
   * One service process: its own store and deny-list, heartbeats flowing. `silence()` makes the
   * announcement channel stop delivering to it (as a dead subscription would), `resume()` brings
   * deliveries back; `calls()` counts the store look-ups.
   */
  async function service(cacheMs = 1000) {
    const process = backend.open();
    opened.push(process);
    let delivering = true;
    const subscribe = process.store.subscribe.bind(process.store);
    process.store.subscribe = (onMessage) =>
      subscribe((message) => {
        if (delivering) onMessage(message);
      });
    const isDenied = jest.spyOn(process.store, 'isDenied');
    const list = new RevocationList(
      process.store,
      { revocationCacheMs: cacheMs },
      undefined,
      journal,
    );
    lists.push(list);
    await list.onModuleInit();
    await until(() => performance.now() - internals(list).freshAsOf < cacheMs, 3000);
    return {
      list,
      calls: () => isDenied.mock.calls.length,
      silence: () => (delivering = false),
      resume: () => (delivering = true),
    };
  }

  it('remembers a "not revoked" answer, also beyond 1 s while its heartbeats come back', async () => {
    const { list, calls } = await service();
    expect(await list.isRevoked('jti-a', 'sid-a', exp(), WRITERS)).toBe(false);
    expect(await list.isRevoked('jti-a', 'sid-a', exp(), WRITERS)).toBe(false);
    expect(calls()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await list.isRevoked('jti-a', 'sid-a', exp(), WRITERS)).toBe(false);
    expect(calls()).toBe(1);
    expect(await list.isRevoked('jti-b', 'sid-a', exp(), WRITERS)).toBe(false);
    expect(calls()).toBe(2);
  });

  it('never remembers an answer for a token without a future expiry', async () => {
    const { list, calls } = await service();
    await list.isRevoked('jti-x', 'sid-x', 0, WRITERS);
    await list.isRevoked('jti-x', 'sid-x', Math.floor(Date.now() / 1000) - 1, WRITERS);
    await list.isRevoked('jti-x', 'sid-x', 0, WRITERS);
    expect(calls()).toBe(3);
  });

  it('refuses a token revoked in this process at once', async () => {
    const { list } = await service();
    expect(await list.isRevoked('jti-c', 'sid-c', exp(), WRITERS)).toBe(false);
    await list.revokeToken('jti-c', exp());
    expect(await list.isRevoked('jti-c', 'sid-c', exp(), WRITERS)).toBe(true);
  });

  it('refuses in another process a token or a session revoked elsewhere, well within 1 s', async () => {
    const here = await service();
    const there = await service();
    expect(await here.list.isRevoked('jti-d', 'sid-d', exp(), WRITERS)).toBe(false);
    expect(await here.list.isRevoked('jti-e', 'sid-e', exp(), WRITERS)).toBe(false);
    expect(await here.list.isRevoked('jti-f', 'sid-e', exp(), WRITERS)).toBe(false);
    expect(await here.list.isRevoked('jti-g', 'sid-g', exp(), WRITERS)).toBe(false);
    const before = here.calls();

    const started = Date.now();
    await there.list.revokeToken('jti-d', exp());
    await until(() => here.list.isRevoked('jti-d', 'sid-d', exp(), WRITERS), 1000);
    await there.list.revokeSession('sid-e', 60);
    await until(() => here.list.isRevoked('jti-e', 'sid-e', exp(), WRITERS), 1000);
    expect(await here.list.isRevoked('jti-f', 'sid-e', exp(), WRITERS)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // other tokens keep their remembered answer
    const calls = here.calls();
    expect(await here.list.isRevoked('jti-g', 'sid-g', exp(), WRITERS)).toBe(false);
    expect(here.calls()).toBe(calls);
    expect(calls).toBeGreaterThan(before);
  });

  it('when announcements stop arriving, still refuses a revoked token within revocationCacheMs', async () => {
    const here = await service(300);
    const there = await service(300);
    expect(await here.list.isRevoked('jti-h', 'sid-h', exp(), WRITERS)).toBe(false);
    // the subscription stops delivering without this process noticing: no announcement, no heartbeat
    here.silence();
    const started = performance.now();
    await there.list.revokeToken('jti-h', exp());
    await until(() => here.list.isRevoked('jti-h', 'sid-h', exp(), WRITERS), 1000);
    expect(performance.now() - started).toBeLessThan(300 + 100);
  });

  it('forgets every remembered answer when heartbeats come back after a gap', async () => {
    const here = await service(300);
    const there = await service(300);
    expect(await here.list.isRevoked('jti-k', 'sid-k', exp(), WRITERS)).toBe(false);
    here.silence(); // announcements and heartbeats lost from here on
    await there.list.revokeToken('jti-k', exp());
    await new Promise((resolve) => setTimeout(resolve, 350));
    here.resume(); // back, the revocation never seen
    await until(() => performance.now() - internals(here.list).freshAsOf < 300, 1000);
    expect(await here.list.isRevoked('jti-k', 'sid-k', exp(), WRITERS)).toBe(true);
  });

  it('asks the store every time with revocationCacheMs 0', async () => {
    const process = backend.open();
    opened.push(process);
    const list = new RevocationList(process.store, { revocationCacheMs: 0 }, undefined, journal);
    await list.onModuleInit();
    const isDenied = jest.spyOn(process.store, 'isDenied');
    expect(await list.isRevoked('jti-i', 'sid-i', exp(), WRITERS)).toBe(false);
    expect(await list.isRevoked('jti-i', 'sid-i', exp(), WRITERS)).toBe(false);
    expect(isDenied).toHaveBeenCalledTimes(2);
  });

  it("records every revocation in the writer's transaction before the store", async () => {
    const { list } = await service();
    recorded.length = 0;
    await list.revokeSession('sid-j', 60);
    expect(recorded).toEqual([['sid', 'sid-j', expect.any(Number)]]);
  });

  it('keeps a revocation across a restart of every process', async () => {
    const before = await service();
    await before.list.revokeToken('jti-r', exp());
    const after = await service();
    expect(await after.list.isRevoked('jti-r', 'sid-r', exp(), WRITERS)).toBe(true);
  });
}

/**
 * Services mode only: Redis is a cache of the writers' records (docs/architecture.md § Redis is
 * a cache). Emptied, it cannot vouch that a token is not revoked: 503 for every token until the
 * writer has rebuilt its part, then the revoked one is refused again and others accepted.
 */
describeWithServers(['redis'], 'the Redis deny-list store')(
  'RevocationList on a Redis that lost everything',
  () => {
    const backend = redisBackend();
    beforeAll(() => backend.setup());
    afterAll(() => backend.teardown());

    it('refuses with 503 until auth rebuilds, then refuses the revoked token and accepts others', async () => {
      const process = backend.open();
      const list = new RevocationList(process.store, { revocationCacheMs: 0 }, undefined, journal);
      try {
        const exp = Math.floor(Date.now() / 1000) + 600;
        await list.revokeToken('jti-lost', exp);
        expect(await list.isRevoked('jti-lost', 'sid-lost', exp, WRITERS)).toBe(true);
        await backend.empty!();
        for (const jti of ['jti-lost', 'jti-other']) {
          await expect(list.isRevoked(jti, 'sid-lost', exp, WRITERS)).rejects.toMatchObject({
            status: 503,
            retryAfter: 1,
          });
        }
        // a user token does not wait for org's part; an agent token does
        await process.store.restore('auth', [{ kind: 'jti', id: 'jti-lost', expiresAt: exp }]);
        expect(await list.isRevoked('jti-lost', 'sid-lost', exp, WRITERS)).toBe(true);
        expect(await list.isRevoked('jti-other', 'sid-lost', exp, WRITERS)).toBe(false);
        await expect(
          list.isRevoked('jti-other', 'sid-x', exp, ['auth', 'org']),
        ).rejects.toMatchObject({ status: 503 });
      } finally {
        await process.close();
      }
    });
  },
);

describeWithServers(['redis'], 'the Redis deny-list store')(
  'RevocationList (services mode: Redis)',
  () => revocationListSuite(redisBackend()),
);
describe('RevocationList (embedded mode: platform database)', () =>
  revocationListSuite(postgresBackend()));

function internals(list: RevocationList): { freshAsOf: number } {
  return list as unknown as { freshAsOf: number };
}

/** Polls `check` every 5 ms until it is true; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

import { randomBytes } from 'node:crypto';
import { Global, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  activeTransaction,
  createDataSource,
  dropDatabase,
  ensureDatabase,
  transactionContext,
  TxHost,
} from '../src/index.js';

/**
 * The unit of work in the async context (docs/decisions.md § Transactions in the request
 * context) on a real PostgreSQL: repositories reach the active transaction through
 * `txHost.tx`; a boundary is retried whole when it is a deadlock victim (docs/architecture.md
 * § Deadlocks and serialization failures); two apps in one process never see each other's
 * transaction.
 */
const server = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432';

/** A repository as the apps write them: no manager parameter. */
@Injectable()
class Counters {
  constructor(readonly txHost: TxHost) {}
  async bump(id: number): Promise<void> {
    await this.txHost.tx.query('UPDATE counter SET n = n + 1, runs = runs + 1 WHERE id = $1', [id]);
  }
  async log(who: string): Promise<void> {
    await activeTransaction(this.txHost).query('INSERT INTO log (who) VALUES ($1)', [who]);
  }
}

/** One app: its own database, DataSource and host, named like `DatabaseModule.forRoot` does. */
async function startApp(name: string): Promise<{ app: INestApplicationContext; url: string }> {
  const url = `${server}/wp_txctx_${name}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(url);
  const dataSource = createDataSource({ url, entities: [], migrations: [], poolSize: 4 });
  await dataSource.initialize();
  await dataSource.query(
    `CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL, runs int NOT NULL)`,
  );
  await dataSource.query(`CREATE TABLE log (id serial PRIMARY KEY, who text NOT NULL)`);
  const context = transactionContext(name);
  // Global as DatabaseModule is: the plugin's own module resolves the DataSource from it.
  @Global()
  @Module({
    imports: context.imports,
    providers: [{ provide: DataSource, useValue: dataSource }, ...context.providers, Counters],
    exports: [DataSource, ...context.exports],
  })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  return { app, url };
}

describe('transactionContext against PostgreSQL', () => {
  let a: { app: INestApplicationContext; url: string };
  let b: { app: INestApplicationContext; url: string };
  const db = (x: typeof a) => x.app.get(DataSource);
  const host = (x: typeof a) => x.app.get(TxHost);
  const counters = (x: typeof a) => x.app.get(Counters);

  beforeAll(async () => {
    a = await startApp('a');
    b = await startApp('b');
  });
  afterAll(async () => {
    for (const x of [a, b]) {
      if (!x) continue;
      await db(x).destroy();
      await x.app.close();
      await dropDatabase(x.url);
    }
  });
  beforeEach(async () => {
    for (const x of [a, b]) {
      await db(x).query('TRUNCATE counter, log');
      await db(x).query('INSERT INTO counter VALUES (1, 0, 0), (2, 0, 0)');
    }
  });

  it('gives the transaction manager inside a boundary and the autocommit one outside', async () => {
    expect(host(a).tx).toBe(db(a).manager);
    expect(host(a).isTransactionActive()).toBe(false);
    await host(a).withTransaction(async () => {
      expect(host(a).tx).not.toBe(db(a).manager);
      expect(host(a).tx.queryRunner?.isTransactionActive).toBe(true);
      const outer = host(a).tx;
      // A nested boundary joins the active transaction.
      await host(a).withTransaction(() => {
        expect(host(a).tx).toBe(outer);
        return Promise.resolve();
      });
    });
    expect(host(a).tx).toBe(db(a).manager);
  });

  it('rolls the whole boundary back when it throws', async () => {
    await expect(
      host(a).withTransaction(async () => {
        await counters(a).bump(1);
        await counters(a).log('x');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db(a).query('SELECT n FROM counter WHERE id = 1')).toEqual([{ n: 0 }]);
    expect(await db(a).query('SELECT count(*)::int AS c FROM log')).toEqual([{ c: 0 }]);
  });

  it('refuses a must-be-transactional statement outside a boundary', async () => {
    await expect(counters(a).log('x')).rejects.toThrow('no transaction is active');
    expect(await db(a).query('SELECT count(*)::int AS c FROM log')).toEqual([{ c: 0 }]);
  });

  it('runs a deadlock victim boundary again whole, so each commits once', async () => {
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const unit = (who: string, first: number, second: number) =>
      host(a).withTransaction(async () => {
        attempts += 1;
        await counters(a).bump(first);
        await counters(a).log(who);
        if (++arrived === 2) release();
        await bothHoldOne;
        await counters(a).bump(second);
        return who;
      });
    await expect(Promise.all([unit('a', 1, 2), unit('b', 2, 1)])).resolves.toEqual(['a', 'b']);
    expect(attempts).toBe(3);
    expect(await db(a).query('SELECT id, n FROM counter ORDER BY id')).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
    const log: { who: string }[] = await db(a).query('SELECT who FROM log ORDER BY who');
    expect(log.map((r) => r.who)).toEqual(['a', 'b']);
  });

  it("keeps two apps' transactions apart in one async context", async () => {
    await host(a).withTransaction(async () => {
      await counters(a).bump(1);
      // App b sees no transaction of its own: its statements autocommit on its own database.
      expect(host(b).isTransactionActive()).toBe(false);
      expect(host(b).tx).toBe(db(b).manager);
      await host(b).withTransaction(async () => {
        expect(host(b).tx).not.toBe(host(a).tx);
        await counters(b).bump(2);
      });
      // b committed on its own; a's transaction is still open and uncommitted.
      expect(await db(b).query('SELECT n FROM counter WHERE id = 2')).toEqual([{ n: 1 }]);
      expect(await db(a).query('SELECT n FROM counter WHERE id = 1')).toEqual([{ n: 0 }]);
    });
    expect(await db(a).query('SELECT n FROM counter WHERE id = 1')).toEqual([{ n: 1 }]);
    expect(await db(b).query('SELECT n FROM counter WHERE id = 1')).toEqual([{ n: 0 }]);
  });
});

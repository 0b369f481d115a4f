import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, dropDatabase, ensureDatabase, preparedQuery } from '../src/index.js';

/**
 * Real deadlocks on a real PostgreSQL (docs/architecture.md § Deadlocks and serialization
 * failures): two transactions lock two rows in opposite order; PostgreSQL rolls one back with
 * `40P01`. Through `createDataSource` both complete — the victim runs again whole — and the
 * rows show each unit of work applied exactly once.
 */
describe('RetryingDataSource against PostgreSQL', () => {
  // The server of @wp/testing's TEST_SERVERS (which this library cannot import: it imports us).
  const server = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432';
  const url = `${server}/wp_retry_${randomBytes(4).toString('hex')}`;
  let db: DataSource;

  beforeAll(async () => {
    await ensureDatabase(url);
    db = createDataSource({ url, entities: [], migrations: [], poolSize: 4 });
    await db.initialize();
    await db.query(`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL, runs int NOT NULL)`);
    await db.query(`CREATE TABLE log (id serial PRIMARY KEY, who text NOT NULL)`);
  });
  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(url);
  });
  beforeEach(async () => {
    await db.query('TRUNCATE counter, log');
    await db.query('INSERT INTO counter VALUES (1, 0, 0), (2, 0, 0)');
  });

  /** Both transactions hold their first row before either asks for its second. */
  function crossedTransactions() {
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const unit = (who: string, first: number, second: number) =>
      db.transaction(async (manager) => {
        attempts += 1;
        await manager.query('UPDATE counter SET n = n + 1, runs = runs + 1 WHERE id = $1', [first]);
        await manager.query('INSERT INTO log (who) VALUES ($1)', [who]);
        if (++arrived === 2) release();
        await bothHoldOne;
        await manager.query('UPDATE counter SET n = n + 1 WHERE id = $1', [second]);
        return who;
      });
    return { unit, attempts: () => attempts };
  }

  it('runs the deadlock victim again, so both transactions commit once', async () => {
    const { unit, attempts } = crossedTransactions();
    await expect(Promise.all([unit('a', 1, 2), unit('b', 2, 1)])).resolves.toEqual(['a', 'b']);
    expect(attempts()).toBe(3);
    expect(await db.query('SELECT id, n FROM counter ORDER BY id')).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
    const log: { who: string }[] = await db.query('SELECT who FROM log ORDER BY who');
    expect(log.map((r) => r.who)).toEqual(['a', 'b']);
  });

  const BOTH_ROWS = `UPDATE counter SET n = n + 1
    WHERE id IN (SELECT id FROM counter ORDER BY id FOR UPDATE)`;
  it.each([
    ['DataSource.query', () => db.query(BOTH_ROWS)],
    ['preparedQuery', () => preparedQuery(db, { name: 'retry_both_rows', text: BOTH_ROWS }, [])],
  ])('runs a deadlocked autocommit statement again (%s)', async (_name, statement) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A transaction holds row 2 and then wants row 1, while the statement takes 1, then 2. The
    // statement waits first, so its backend runs the deadlock check first: it is the victim.
    const holder = db.transaction(async (manager) => {
      await manager.query('UPDATE counter SET n = n + 10 WHERE id = 2');
      release();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await manager.query('UPDATE counter SET n = n + 10 WHERE id = 1');
    });
    await held;
    await expect(Promise.all([holder, statement()])).resolves.toBeDefined();
    expect(await db.query('SELECT id, n FROM counter ORDER BY id')).toEqual([
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ]);
  });
});

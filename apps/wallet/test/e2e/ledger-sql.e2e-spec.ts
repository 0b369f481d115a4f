import { createHash } from 'node:crypto';
import { createDataSource, dropDatabase, ensureDatabase, runMigrations } from '@wp/persistence';
import { TEST_SERVERS, uniqueId } from '@wp/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { walletDataSource } from '../../src/database/data-source.js';
import { WALLET_MIGRATIONS } from '../../src/migrations/index.js';
import { readLedgerSql } from '../../src/modules/ledger/sql/ledger-sql.js';

/**
 * The ledger's SQL has one source, `src/modules/ledger/sql/*.sql` (docs/wallet.md § Ledger).
 * Definitions are compared as PostgreSQL prints them (`pg_get_functiondef`, `pg_get_triggerdef`),
 * so the comparison is exact yet independent of how the files are laid out.
 */
describe('ledger SQL files', () => {
  const url = `${TEST_SERVERS.postgres}/wp_wallet_${uniqueId('sql')}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    await ensureDatabase(url);
    dataSource = walletDataSource(url);
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await dropDatabase(url);
  });

  it('define exactly the functions and triggers a freshly migrated database holds', async () => {
    await runMigrations(dataSource);
    const migrated = await ledgerDefinitions(dataSource.manager);
    expect(Object.keys(migrated)).toEqual(
      expect.arrayContaining([
        'function wallet_move(text,character,text,numeric,character,text,text,jsonb,text,text,text,text,text,boolean,uuid)',
        'function wallet_move_batch(jsonb)',
        'trigger posting_balanced on posting',
      ]),
    );

    // Drop every function (and with them their triggers), load the files, compare, roll back.
    const fromFiles = await inRolledBackTransaction(dataSource, async (manager) => {
      const functions: { signature: string }[] = await manager.query(
        `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = 'public'
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
      );
      for (const { signature } of functions) {
        await manager.query(`DROP FUNCTION ${signature} CASCADE`);
      }
      expect(await ledgerDefinitions(manager)).toEqual({});
      for (const { sql } of readLedgerSql()) await manager.query(sql);
      return ledgerDefinitions(manager);
    });
    expect(fromFiles).toEqual(migrated);
  });

  it("lets every migration's down() restore the ledger SQL the migration before it left", async () => {
    const after: Record<string, string>[] = [];
    const stepUrl = `${TEST_SERVERS.postgres}/wp_wallet_${uniqueId('step')}`;
    await ensureDatabase(stepUrl);
    try {
      for (let i = 0; i <= WALLET_MIGRATIONS.length; i++) {
        const step = createDataSource({
          url: stepUrl,
          entities: [],
          migrations: WALLET_MIGRATIONS.slice(0, i),
        });
        await step.initialize();
        try {
          await runMigrations(step);
          after.push(await ledgerDefinitions(step.manager));
          if (i === WALLET_MIGRATIONS.length) {
            for (let j = i - 1; j >= 0; j--) {
              await step.undoLastMigration({ transaction: 'each' });
              expect({ undone: j, definitions: await ledgerDefinitions(step.manager) }).toEqual({
                undone: j,
                definitions: after[j],
              });
            }
          }
        } finally {
          await step.destroy();
        }
      }
    } finally {
      await dropDatabase(stepUrl);
    }
    expect(Object.keys(after[WALLET_MIGRATIONS.length]).length).toBeGreaterThan(5);
  });

  it('are those the newest migration loading them was written for (an edit needs a migration)', () => {
    const hash = createHash('sha256');
    for (const { file, sql } of readLedgerSql()) hash.update(`${file}\0${sql}\0`);
    const newest = [...WALLET_MIGRATIONS]
      .reverse()
      .find((m): m is typeof m & { ledgerSqlSha256: string } => 'ledgerSqlSha256' in m);
    expect({
      files: hash.digest('hex'),
      hint: 'changed src/modules/ledger/sql? add a migration that loads it (docs/wallet.md § Ledger)',
    }).toEqual({
      files: newest?.ledgerSqlSha256,
      hint: expect.any(String),
    });
  });
});

/** Every function of the public schema and every trigger, as PostgreSQL prints them. */
async function ledgerDefinitions(manager: EntityManager): Promise<Record<string, string>> {
  const rows: { name: string; definition: string }[] = await manager.query(
    `SELECT 'function ' || p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
     UNION ALL
     SELECT 'trigger ' || t.tgname || ' on ' || t.tgrelid::regclass::text,
            pg_get_triggerdef(t.oid)
       FROM pg_trigger t WHERE NOT t.tgisinternal
     ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.definition]));
}

/** Runs `work` in a transaction that is always rolled back; returns its result. */
async function inRolledBackTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  try {
    return await work(runner.manager);
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

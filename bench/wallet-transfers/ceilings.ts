// The wallet-transfers bench's ceilings: pgbench TPC-B, the hot-account script and the ledger
// function, prepared and run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Pool as PgPool } from 'pg';
import {
  HOT_ACCOUNT_SCHEMA,
  HOT_ACCOUNT_SCRIPT,
  type PgConnection,
  pgbench,
  pgbenchInit,
  pgTarget,
  walletMoveScript,
} from '../support/pgbench.js';
import { log } from './log.js';
import type { Row } from './report.js';
import type { BenchUser } from './users.js';

/** Where each ceiling runs: the pgbench database and its scripts, the wallet database and its. */
export interface Ceilings {
  pg: PgConnection;
  pgDatabase: string;
  hotScript: string;
  walletPg: PgConnection;
  walletDatabase: string;
  sqlRandom: string;
  sqlHot: string;
}

/**
 * Initializes pgbench's tables (`scale`) and the hot-account table in `pgbenchDb`, maps 1..n to
 * the wallets in `bench_wallet_index` of the wallet database (`db`), writes the scripts to
 * `scriptDir`.
 */
export async function prepareCeilings(options: {
  pgbenchDb: string;
  walletDb: string;
  db: PgPool;
  users: BenchUser[];
  hot: BenchUser;
  scale: number;
  scriptDir: string;
}): Promise<Ceilings> {
  const { pgbenchDb, walletDb, db, users, hot, scale, scriptDir } = options;
  const pg = pgTarget(pgbenchDb);
  const pgDatabase = new URL(pgbenchDb).pathname.slice(1);
  await pgbenchInit(pg, pgDatabase, scale);
  const admin = new Client({ connectionString: pgbenchDb });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query(HOT_ACCOUNT_SCHEMA);
    await admin.query('VACUUM ANALYZE bench_account');
  } finally {
    await admin.end();
  }
  const hotScript = join(scriptDir, 'hot-account.sql');
  writeFileSync(hotScript, HOT_ACCOUNT_SCRIPT);
  // The ledger function straight from pgbench (no HTTP): what a transfer costs PostgreSQL.
  await db.query('CREATE TABLE bench_wallet_index (i int PRIMARY KEY, address_hash char(42))');
  await db.query(
    'INSERT INTO bench_wallet_index SELECT i, a FROM unnest($1::text[]) WITH ORDINALITY AS t(a, i)',
    [users.map((u) => u.wallet)],
  );
  await db.query('INSERT INTO bench_wallet_index VALUES (0, $1)', [hot.wallet]);
  const sqlRandom = join(scriptDir, 'wallet-move-random.sql');
  const sqlHot = join(scriptDir, 'wallet-move-hot.sql');
  writeFileSync(sqlRandom, walletMoveScript(users.length, false));
  writeFileSync(sqlHot, walletMoveScript(users.length, true));
  const walletPg = pgTarget(walletDb);
  const walletDatabase = new URL(walletDb).pathname.slice(1);
  return { pg, pgDatabase, hotScript, walletPg, walletDatabase, sqlRandom, sqlHot };
}

/**
 * `runs` times, per client count: the four ceilings for `seconds` each, every one after
 * `settle` of its database; appends their rows to `results`.
 */
export async function runCeilings(
  c: Ceilings,
  options: {
    runs: number;
    clientCounts: number[];
    seconds: number;
    pgbenchDb: string;
    walletDb: string;
    settle: (database: string) => Promise<void>;
  },
  results: Row[],
): Promise<void> {
  const { runs, clientCounts, seconds, pgbenchDb, walletDb, settle } = options;
  for (let run = 1; run <= runs; run++) {
    for (const clients of clientCounts) {
      await settle(pgbenchDb);
      const tpcb = await pgbench(c.pg, c.pgDatabase, clients, seconds);
      await settle(pgbenchDb);
      const hotSql = await pgbench(c.pg, c.pgDatabase, clients, seconds, c.hotScript);
      await settle(walletDb);
      const fnRandom = await pgbench(c.walletPg, c.walletDatabase, clients, seconds, c.sqlRandom);
      await settle(walletDb);
      const fnHot = await pgbench(c.walletPg, c.walletDatabase, clients, seconds, c.sqlHot);
      results.push({ run, name: 'pgbench TPC-B', clients, rate: tpcb });
      results.push({ run, name: 'pgbench hot 5-RT', clients, rate: hotSql });
      results.push({ run, name: 'wallet_move SQL random', clients, rate: fnRandom });
      results.push({ run, name: 'wallet_move SQL hot', clients, rate: fnHot });
      log(
        `ceilings ${run} c${clients}: TPC-B ${tpcb.toFixed(0)} tps, hot 5-RT ${hotSql.toFixed(0)} tps;` +
          ` wallet_move random ${fnRandom.toFixed(0)} tps, hot ${fnHot.toFixed(0)} tps`,
      );
    }
  }
}

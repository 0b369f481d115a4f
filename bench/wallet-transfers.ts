import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hashApiKey } from '@wp/security';
import { ensureDatabase, dropDatabase } from '@wp/persistence';
import { TEST_SERVERS, TestEnvironment } from '@wp/testing';
import { Redis } from 'ioredis';
import { Pool as PgPool } from 'pg';
import { Pool } from 'undici';
import { walletDataSource } from '../apps/wallet/src/database/data-source.js';
import type { LedgerAuditReport } from '../apps/wallet/src/modules/ledger/ledger-audit.js';
import { ServiceProcess } from './support/processes.js';
import { autovacuumOff, vacuumAnalyze } from './support/vacuum.js';
import { auditInSnapshot } from './wallet-transfers/audit.js';
import { prepareCeilings, runCeilings } from './wallet-transfers/ceilings.js';
import { log } from './wallet-transfers/log.js';
import { measureTransfers } from './wallet-transfers/measure.js';
import { nodeOptions } from './wallet-transfers/node-options.js';
import { report, type Row } from './wallet-transfers/report.js';
import { primeWallets, SCENARIOS, transferScenarios } from './wallet-transfers/transfers.js';
import { openOrganizationWallets } from './wallet-transfers/organizations.js';
import { fund, openWallets } from './wallet-transfers/users.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description =
  'wallet transfers through the gateway (random and hot wallets) against pgbench ceilings';

/**
 * Wallet transfer benchmark (docs/wallet.md § Benchmark; results in docs/wallet.md).
 *
 * Starts the wallet service and the gateway as child processes on a fresh database, opens
 * `--wallets` personal wallets through `auth.user.activated` events, funds them with credits,
 * then, per run and per client count: transfers between random wallets, into one hot wallet and
 * out of organization wallets (by their ADMINs: the permission freshness check) through the gateway, each measured twice: closed loop (N clients back to back: transfers/s)
 * and open loop at 70 % of that rate (latency p50/p99 from the due time, no coordinated
 * omission). Then, in the same invocation and on the same PostgreSQL, `--runs` times: pgbench's
 * TPC-B-like script and a 5-round-trip hot-account transfer script at the same client counts
 * (the ceilings run after all service runs, so they cannot evict the ledger's working set
 * between them). After every service run and after the ceilings the ledger invariants are
 * checked. Prints medians over `--runs`.
 *
 *   npm run bench -- wallet-transfers [--runs 3] [--duration 8] [--clients 16,64]
 *                                     [--wallets 1000] [--scale 16] [--ledger-concurrency N]
 *                                     [--webhook-hints]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '3' },
      duration: { type: 'string', default: '8' },
      clients: { type: 'string', default: '16,64' },
      wallets: { type: 'string', default: '1000' },
      scale: { type: 'string', default: '16' },
      pool: { type: 'string', default: '10' },
      /** `WALLET_LEDGER_CONCURRENCY` of the wallet service (group commit; docs/wallet.md). */
      'ledger-concurrency': { type: 'string', default: '' },
      /** `wallet`: skip the gateway (measures its cost). */
      target: { type: 'string', default: 'gateway' },
      /** Extra NODE_OPTIONS for the wallet process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`. */
      'wallet-node-options': { type: 'string', default: '' },
      /** Extra NODE_OPTIONS for the gateway process (same use). */
      'gateway-node-options': { type: 'string', default: '' },
      /**
       * Directory for CPU profiles of the wallet and the gateway during each closed loop of the
       * first run (`bench/support/cpu-profile.js`; open in Chrome DevTools or speedscope).
       */
      profile: { type: 'string', default: '' },
      /**
       * Every bench organization announces an endpoint taking transaction events: its transfers
       * write `wallet.transaction.posted` (docs/webhooks.md § Transaction events and the
       * transfer path). Off: no organization wants them (the default deployment).
       */
      'webhook-hints': { type: 'boolean', default: false },
      /** Which HTTP scenarios to run (`random,hot,organization`); profiling runs may take one. */
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
    },
  });
  const runs = Number(values.runs);
  const seconds = Number(values.duration);
  const clientCounts = values.clients.split(',').map(Number);
  const walletCount = Number(values.wallets);
  const scale = Number(values.scale);
  const profileDir = values.profile ? resolve(values.profile) : '';
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const env = new TestEnvironment({
    LOG_LEVEL: 'warn',
    WALLET_DATABASE_POOL_SIZE: values.pool,
    GATEWAY_RATE_LIMIT: '0',
    ...(values['ledger-concurrency']
      ? { WALLET_LEDGER_CONCURRENCY: values['ledger-concurrency'] }
      : {}),
  });
  const pgbenchDb = `${TEST_SERVERS.postgres}/wp_bench_pgbench_${env.id}`;
  const scriptDir = mkdtempSync(join(tmpdir(), 'wp-bench-'));
  const stopping: (() => Promise<void>)[] = [];
  try {
    log(`preparing: database, services, ${walletCount} wallets, pgbench scale ${scale}`);
    const walletDb = await env.prepareDatabase('wallet', walletDataSource);
    await env.vouchFor(['auth', 'org']); // played by the bench: tokens, key, events
    const wallet = await ServiceProcess.start(
      'wallet',
      {
        ...env.env,
        WALLET_HOST: '127.0.0.1',
        ...nodeOptions(values['wallet-node-options'], profileDir, 'wallet'),
      },
      'WALLET_PORT',
    );
    stopping.push(() => wallet.stop());
    const gateway = await ServiceProcess.start(
      'gateway',
      {
        ...env.env,
        GATEWAY_HOST: '127.0.0.1',
        WALLET_UPSTREAM_URL: wallet.url,
        ...nodeOptions(values['gateway-node-options'], profileDir, 'gateway'),
      },
      'GATEWAY_PORT',
    );
    stopping.push(() => gateway.stop());
    const redis = new Redis(env.env['REDIS_URL'], { keyPrefix: env.env['REDIS_KEY_PREFIX'] });
    await redis.hset('api_keys', hashApiKey(env.keys.apiKey), 'bench');
    redis.disconnect();

    const db = new PgPool({ connectionString: walletDb, max: 2 });
    stopping.push(() => db.end());
    const users = await openWallets(env, db, walletCount + 1);
    const hot = users.pop()!;
    const target = values.target === 'wallet' ? wallet.url : gateway.url;
    const http = new Pool(target, { connections: Math.max(...clientCounts), pipelining: 1 });
    stopping.push(() => http.close());
    const organizations = values.scenarios.split(',').includes('organization')
      ? await openOrganizationWallets(env, db, users, values['webhook-hints'])
      : [];
    await fund(http, env, [...users, hot, ...organizations]);

    await ensureDatabase(pgbenchDb);
    stopping.push(() => dropDatabase(pgbenchDb));
    const ceilings = await prepareCeilings({
      pgbenchDb,
      walletDb,
      db,
      users,
      hot,
      scale,
      scriptDir,
    });
    const scenarios = transferScenarios(
      env.keys.apiKey,
      { users, hot, organizations },
      values.scenarios,
    );
    await primeWallets(http, env.keys.apiKey, [...users, ...organizations], hot);

    // Without autovacuum every measurement would start on the dead row versions of all before
    // it: do its work before each one, for scenarios and ceilings alike.
    const vacuum = await autovacuumOff(walletDb);
    if (vacuum) log('autovacuum is off on this server: VACUUM ANALYZE before every measurement');
    const settle = async (database: string) => {
      if (vacuum) await vacuumAnalyze(database);
    };

    // The service's runs come first, then the ceilings' (both in this invocation, on this
    // PostgreSQL). Interleaved, every TPC-B run (scale 16: ~240 MB) went through the server's
    // shared buffers and the next service run started with the ledger's pages evicted and
    // dirty pages to write back: its figure fell run after run while the ceilings' did not
    // (docs/wallet.md § Benchmark).
    const results: Row[] = [];
    const audits: LedgerAuditReport[] = [];
    for (let run = 1; run <= runs; run++) {
      for (const [name, next] of Object.entries(scenarios)) {
        for (const clients of clientCounts) {
          await settle(walletDb);
          results.push(
            await measureTransfers({
              http,
              next,
              name,
              run,
              clients,
              seconds,
              wallet,
              gateway,
              profiling: profileDir !== '' && run === 1,
            }),
          );
        }
      }
      const audit = await auditInSnapshot(walletDb);
      audits.push(audit);
      log(`run ${run} ledger audit: ${audit.ok ? 'ok' : `FAILED ${audit.problems.join('; ')}`}`);
    }
    await runCeilings(
      ceilings,
      { runs, clientCounts, seconds, pgbenchDb, walletDb, settle },
      results,
    );

    const audit = await auditInSnapshot(walletDb);
    audits.push(audit);
    log(
      `ledger audit after the ceilings: ${audit.ok ? 'ok' : `FAILED ${audit.problems.join('; ')}`}`,
    );
    report(results, audits, clientCounts, {
      runs,
      seconds,
      walletCount,
      scale,
      pool: values.pool,
      target: values.target,
      node: process.version,
    });
  } finally {
    for (const stop of stopping.reverse()) await stop().catch(() => undefined);
    await env.cleanup();
    rmSync(scriptDir, { recursive: true, force: true });
  }
}

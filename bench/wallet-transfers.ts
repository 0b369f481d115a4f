import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hashApiKey } from '@wp/security';
import { ensureDatabase, dropDatabase } from '@wp/persistence';
import { histogramTotals, signAccessToken, TEST_SERVERS, TestEnvironment } from '@wp/testing';
import { Redis } from 'ioredis';
import { connect, headers as natsHeaders, JSONCodec } from 'nats';
import { Client, Pool as PgPool } from 'pg';
import { Pool } from 'undici';
import { walletDataSource } from '../apps/wallet/src/database/data-source.js';
import {
  auditLedger,
  type LedgerAuditReport,
} from '../apps/wallet/src/modules/ledger/ledger-audit.js';
import { type BenchRequest, closedLoop, httpOperation, openLoop, request } from './lib/load.js';
import { median } from './lib/stats.js';
import {
  HOT_ACCOUNT_SCHEMA,
  HOT_ACCOUNT_SCRIPT,
  pgbench,
  pgbenchInit,
  walletMoveScript,
} from './support/pgbench.js';
import { ROOT, ServiceProcess } from './support/processes.js';
import { autovacuumOff, vacuumAnalyze } from './support/vacuum.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description =
  'wallet transfers through the gateway (random and hot wallets) against pgbench ceilings';

/**
 * Wallet transfer benchmark (docs/wallet.md § Benchmark; results in docs/wallet.md).
 *
 * Starts the wallet service and the gateway as child processes on a fresh database, opens
 * `--wallets` personal wallets through `auth.user.activated` events, funds them with credits,
 * then, per run and per client count: transfers between random wallets and into one hot wallet
 * through the gateway, each measured twice: closed loop (N clients back to back: transfers/s)
 * and open loop at 70 % of that rate (latency p50/p99 from the due time, no coordinated
 * omission). Then, in the same invocation and on the same PostgreSQL, `--runs` times: pgbench's
 * TPC-B-like script and a 5-round-trip hot-account transfer script at the same client counts
 * (the ceilings run after all service runs, so they cannot evict the ledger's working set
 * between them). After every service run and after the ceilings the ledger invariants are
 * checked. Prints medians over `--runs`.
 *
 *   npm run bench -- wallet-transfers [--runs 3] [--duration 8] [--clients 16,64]
 *                                     [--wallets 1000] [--scale 16] [--ledger-concurrency N]
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
      /** Which HTTP scenarios to run (`random,hot`); profiling runs may take one. */
      scenarios: { type: 'string', default: 'random,hot' },
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
    await fund(http, env, users, hot);

    await ensureDatabase(pgbenchDb);
    stopping.push(() => dropDatabase(pgbenchDb));
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

    const headers = (user: BenchUser) => ({
      'api-key': env.keys.apiKey,
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
    });
    const transfer = (from: BenchUser, to: BenchUser): BenchRequest => ({
      method: 'POST',
      path: '/v1/api/wallets/transact',
      headers: headers(from),
      body: JSON.stringify({
        transaction: {
          from_wallet: from.wallet,
          to_wallet: to.wallet,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 0.01,
        },
      }),
    });
    const pick = () => users[Math.floor(Math.random() * users.length)];
    const allScenarios: Record<string, () => BenchRequest> = {
      random: () => {
        const from = pick();
        let to = pick();
        while (to === from) to = pick();
        return transfer(from, to);
      },
      hot: () => transfer(pick(), hot),
    };
    const scenarios = Object.fromEntries(
      values.scenarios.split(',').map((name) => {
        if (!allScenarios[name]) throw new Error(`unknown scenario ${name} (random, hot)`);
        return [name, allScenarios[name]];
      }),
    );

    // Steady state: every wallet has moved money once (identities known, code paths warm).
    const primed = [...users];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let u = primed.pop(); u; u = primed.pop()) {
          await request(http, { ...transfer(u, hot), raw: true });
        }
      }),
    );

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
          const op = httpOperation(http, next);
          await closedLoop({ op, connections: clients, durationMs: Math.min(3, seconds) * 1000 }); // warm-up
          const profiling = profileDir !== '' && run === 1;
          if (profiling) for (const service of [wallet, gateway]) service.signal('SIGWINCH');
          const batchesBefore = await histogramTotals(wallet.url, BATCH_SIZES);
          const cpuBefore = [wallet.pid, gateway.pid].map(cpuMs);
          const pgCpuBefore = postgresCpuMs();
          const closed = await closedLoop({ op, connections: clients, durationMs: seconds * 1000 });
          const [walletCpu, gatewayCpu] = [wallet.pid, gateway.pid].map(
            (pid, i) => (cpuMs(pid) - cpuBefore[i]) / Math.max(1, closed.ok),
          );
          const postgresCpu = postgresCpuMs(pgCpuBefore) / Math.max(1, closed.ok);
          const batches = await histogramTotals(wallet.url, BATCH_SIZES);
          const batchMean =
            (batches.sum - batchesBefore.sum) / (batches.count - batchesBefore.count);
          if (profiling) for (const service of [wallet, gateway]) service.signal('SIGWINCH');
          const open = await openLoop({
            op,
            rate: Math.max(1, closed.rate * 0.7),
            durationMs: seconds * 1000,
          });
          results.push({
            run,
            name: `${name} wallets`,
            clients,
            rate: closed.rate,
            p50: open.p50 ?? NaN,
            p99: open.p99 ?? NaN,
            errors: closed.errors + open.errors,
            offered: open.target,
            walletCpu,
            gatewayCpu,
            postgresCpu,
            batchMean,
          });
          log(
            `run ${run} ${name.padEnd(6)} c${clients}: ${closed.rate.toFixed(0)} transfers/s` +
              ` (errors ${closed.errors}${fmtFailures(closed.errorSamples)}); at ${open.target.toFixed(0)}/s` +
              ` p50 ${(open.p50 ?? NaN).toFixed(2)} ms p99 ${(open.p99 ?? NaN).toFixed(2)} ms;` +
              ` CPU per transfer: wallet ${walletCpu.toFixed(2)} ms, gateway ${gatewayCpu.toFixed(2)} ms,` +
              ` PostgreSQL ${postgresCpu.toFixed(2)} ms;` +
              ` movements per ledger call ${batchMean.toFixed(1)}` +
              ` (load ${loadavg()[0].toFixed(1)})`,
          );
        }
      }
      const audit = await auditInSnapshot(walletDb);
      audits.push(audit);
      log(`run ${run} ledger audit: ${audit.ok ? 'ok' : `FAILED ${audit.problems.join('; ')}`}`);
    }
    for (let run = 1; run <= runs; run++) {
      for (const clients of clientCounts) {
        await settle(pgbenchDb);
        const tpcb = await pgbench(pg, pgDatabase, clients, seconds);
        await settle(pgbenchDb);
        const hotSql = await pgbench(pg, pgDatabase, clients, seconds, hotScript);
        await settle(walletDb);
        const fnRandom = await pgbench(walletPg, walletDatabase, clients, seconds, sqlRandom);
        await settle(walletDb);
        const fnHot = await pgbench(walletPg, walletDatabase, clients, seconds, sqlHot);
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

interface BenchUser {
  id: string;
  wallet: string;
  token: string;
}

interface Row {
  run: number;
  name: string;
  clients: number;
  rate: number;
  p50?: number;
  p99?: number;
  errors?: number;
  offered?: number;
  /** CPU ms (user + system) of the wallet / gateway process per transfer, closed loop. */
  walletCpu?: number;
  gatewayCpu?: number;
  /** CPU ms of the PostgreSQL server (all its processes) per transfer, closed loop. */
  postgresCpu?: number;
  /** Mean movements per ledger call during the closed loop (group commit, MoveBatcher). */
  batchMean?: number;
}

/** The wallet's histogram of movements per ledger call (group commit, MoveBatcher). */
const BATCH_SIZES = 'wallet_ledger_batch_size';

/** Personal wallets the way they are really opened: `auth.user.activated` on JetStream. */
async function openWallets(env: TestEnvironment, db: PgPool, count: number): Promise<BenchUser[]> {
  const nc = await connect({ servers: env.env['NATS_URL'] });
  const codec = JSONCodec();
  const js = nc.jetstream();
  const ids = Array.from({ length: count }, () => randomUUID());
  await Promise.all(
    ids.map((userId) => {
      const id = randomUUID();
      const h = natsHeaders();
      h.set('Nats-Msg-Id', id);
      const payload = {
        userId,
        email: `${userId.slice(0, 8)}@bench.example`,
        phone: null,
        firstName: 'Bench',
        lastName: 'User',
        status: 'active',
      };
      return js.publish(
        `${env.id}.auth.user.activated`,
        codec.encode({
          id,
          subject: 'auth.user.activated',
          occurredAt: new Date().toISOString(),
          payload,
        }),
        { msgID: id, headers: h },
      );
    }),
  );
  await nc.close();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM wallet`);
    if (rows[0].n >= count) break;
    if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${count} wallets opened`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const { rows } = await db.query<{ entity_id: string; address_hash: string }>(
    `SELECT entity_id, address_hash FROM wallet WHERE entity_type = 'user'`,
  );
  const byUser = new Map(rows.map((r) => [r.entity_id, r.address_hash]));
  return ids.map((id) => ({
    id,
    wallet: byUser.get(id)!,
    token: signAccessToken(env.keys.jwtPrivateKey, id),
  }));
}

/** Credits every wallet through the gateway with `Admin-Access` (and warms every token). */
async function fund(
  http: Pool,
  env: TestEnvironment,
  users: BenchUser[],
  hot: BenchUser,
): Promise<void> {
  const queue = [...users, hot];
  const worker = async () => {
    for (let user = queue.pop(); user; user = queue.pop()) {
      const res = await http.request({
        method: 'POST',
        path: `/v1/api/wallets/${user.wallet}/credits`,
        headers: {
          'api-key': env.keys.apiKey,
          authorization: `Bearer ${user.token}`,
          'admin-access': env.keys.adminAccessToken,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ credit: { amount: 1_000_000_000, description: 'bench funding' } }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`funding failed: ${res.statusCode} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function auditInSnapshot(url: string): Promise<LedgerAuditReport> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const report = await auditLedger(async (sql) => (await client.query(sql)).rows);
    await client.query('COMMIT');
    return report;
  } finally {
    await client.end();
  }
}

function report(
  rows: Row[],
  audits: LedgerAuditReport[],
  clientCounts: number[],
  settings: Record<string, unknown>,
): void {
  const medianOf = (
    name: string,
    clients: number,
    field: 'rate' | 'p50' | 'p99' | 'walletCpu' | 'gatewayCpu' | 'postgresCpu',
  ) =>
    median(
      rows.filter((r) => r.name === name && r.clients === clients).map((r) => r[field] ?? NaN),
    ) ?? NaN;
  const lines = [
    '',
    `wallet transfers through the gateway; medians of ${String(settings['runs'])} runs of ${String(settings['seconds'])} s each;` +
      ` Node ${process.version} (every process: the services run on the bench's node)`,
    `(${String(settings['walletCount'])} wallets, wallet pool ${String(settings['pool'])}, pgbench scale ${String(settings['scale'])},` +
      ` ${cpus().length} shared cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end)`,
    '',
    'scenario                 clients  transfers/s   p50 ms   p99 ms  CPU ms/transfer wallet, gateway, PostgreSQL',
  ];
  const names = [
    'random wallets',
    'hot wallets',
    'pgbench TPC-B',
    'pgbench hot 5-RT',
    'wallet_move SQL random',
    'wallet_move SQL hot',
  ];
  for (const name of names) {
    for (const clients of clientCounts) {
      const rate = medianOf(name, clients, 'rate');
      const http = name.endsWith('wallets');
      const p50 = http ? medianOf(name, clients, 'p50').toFixed(2) : '';
      const p99 = http ? medianOf(name, clients, 'p99').toFixed(2) : '';
      const cpu = http
        ? `${medianOf(name, clients, 'walletCpu').toFixed(2).padStart(10)}` +
          `${medianOf(name, clients, 'gatewayCpu').toFixed(2).padStart(9)}` +
          `${medianOf(name, clients, 'postgresCpu').toFixed(2).padStart(9)}`
        : '';
      lines.push(
        `${name.replace('hot wallets', 'hot wallet').padEnd(25)}${String(clients).padStart(7)}` +
          `${rate.toFixed(0).padStart(13)}${p50.padStart(9)}${p99.padStart(9)}${cpu}`,
      );
    }
  }
  lines.push('');
  if (settings['target'] !== 'gateway')
    lines.push(`(target: ${String(settings['target'])} directly)`);
  for (const clients of clientCounts) {
    const random =
      medianOf('random wallets', clients, 'rate') / medianOf('pgbench TPC-B', clients, 'rate');
    const hot =
      medianOf('hot wallets', clients, 'rate') / medianOf('pgbench hot 5-RT', clients, 'rate');
    const sqlRandom =
      medianOf('wallet_move SQL random', clients, 'rate') /
      medianOf('pgbench TPC-B', clients, 'rate');
    const sqlHot =
      medianOf('wallet_move SQL hot', clients, 'rate') /
      medianOf('pgbench hot 5-RT', clients, 'rate');
    lines.push(
      `c${clients}: through the gateway: random / TPC-B = ${pct(random)} (target ≥ 50 %),` +
        ` hot / hot 5-RT = ${pct(hot)} (target ≥ 100 %);` +
        ` ledger function alone: ${pct(sqlRandom)}, ${pct(sqlHot)}`,
    );
  }
  const last = audits[audits.length - 1];
  lines.push(
    '',
    `ledger invariants after every run: ${audits.every((a) => a.ok) ? 'hold' : 'VIOLATED'}` +
      ` (sum per asset zero, no negative balance, balances = postings, holds = reservations,` +
      ` balance_after chains)`,
    `  ${last.counts.entries} journal entries, ${last.counts.postings} postings, ${last.counts.balances} balances;` +
      ` ${last.assets.map((a) => `${a.asset} sum ${a.sum}, issuance ${a.issuance}`).join('; ')}`,
  );
  for (const a of audits) for (const p of a.problems) lines.push(`  problem: ${p}`);
  console.log(lines.join('\n'));
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `wallet-transfers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ settings, rows, audits }, null, 2));
  console.log(`\nraw results: ${file}`);
}

/** `NODE_OPTIONS` (and the profiler preload with `--profile`) for a child process. */
function nodeOptions(options: string, profileDir: string, name: string): Record<string, string> {
  const all = profileDir
    ? `${options} --require ${join(__dirname, 'support', 'cpu-profile.js')}`.trim()
    : options;
  return {
    ...(all ? { NODE_OPTIONS: all } : {}),
    ...(profileDir ? { BENCH_PROFILE_DIR: profileDir, BENCH_PROFILE_NAME: name } : {}),
  };
}

/** utime + stime of a process, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * CPU ms of every PostgreSQL server process on this machine (backends, WAL writer,
 * checkpointer: all of a commit's cost), by pid; given an earlier reading, the CPU spent since
 * (processes started since count whole, ones that exited are lost). NaN-free: a server that is
 * not local reads as 0.
 */
function postgresCpuMs(): Map<number, number>;
function postgresCpuMs(since: Map<number, number>): number;
function postgresCpuMs(since?: Map<number, number>): Map<number, number> | number {
  const now = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const ms = cpuMs(Number(entry));
    if (Number.isFinite(ms)) now.set(Number(entry), ms);
  }
  if (!since) return now;
  let spent = 0;
  for (const [pid, ms] of now) spent += ms - (since.get(pid) ?? 0);
  return spent;
}

/** Kernel clock ticks per second (`getconf CLK_TCK`), 100 on Linux in practice. */
const CLOCK_TICKS = 100;

/** A ratio as a percentage; `-` when a scenario was not run (`--scenarios`). */
function pct(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)} %` : '-';
}

function pgTarget(url: string): { host: string; port: string; user: string } {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: u.port || '5432',
    user: decodeURIComponent(u.username) || 'postgres',
  };
}

/** The failures a loop kept (its first few kinds, with counts). */
function fmtFailures(entries: [string, number][]): string {
  return entries.length ? `: ${entries.map(([k, v]) => `${k}×${v}`).join(', ')}` : '';
}

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

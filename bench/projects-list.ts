import { hashApiKey } from '@wp/security';
import { signAccessToken } from '@wp/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { ProjectListFilter } from '../apps/org/src/modules/projects/project-list.js';
import { ProjectsRepository } from '../apps/org/src/modules/projects/projects.repository.js';
import { availableParallelism } from 'node:os';
import { cpuMeter, type CpuUsed } from './lib/cpu.js';
import { machineLine, withServices } from './lib/harness.js';
import { closedLoop, httpPool, openLoop, request, type Operation } from './lib/load.js';
import { parseOptions, USAGE, type BenchOptions } from './lib/options.js';
import { fmtMs, fmtPct, fmtRate, printTable, progress } from './lib/report.js';
import { median, summarize, type RunSummary } from './lib/stats.js';
import { seedProjects, type Seeded } from './support/projects-seed.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description =
  'GET /organizations/{id}/projects through the gateway, 1,000 of 21,000 projects';

/**
 * `GET /organizations/{id}/projects` through the gateway (docs/org.md § Performance; results and
 * analysis in docs/org.md § Performance).
 *
 * Migrates and starts org + a gateway (bench/lib harness: isolated databases, private NATS),
 * seeds in SQL one organization with 1,000 projects (varied members, roles, denied access, keys,
 * dates, wallets, tools and notebooks counts) among 20,000 projects of 400 other organizations,
 * then per scenario: closed loop (req/s) interleaved run by run with the ceiling, then an open
 * loop at `--open-fraction` of that rate (p50/p99 from the scheduled send time). The ceiling is
 * `GET /organizations/x/projects`: the same service through the same gateway, Api-Key check, JWT
 * guard and revocation look-up in Redis, answered 400 by the id pipe before any database work.
 * Finally EXPLAIN (ANALYZE, BUFFERS) of the list SQL the repository generates for the combined
 * filters (the same SQL the HTTP answer came from: the bench checks both give the same ids).
 *
 *   npm run bench -- projects-list [scenario …] [--runs 3] [--duration 2] [--quick]
 */
export async function main(argv: string[]): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (!argv.includes('--runs') && !argv.includes('--quick')) options.runs = 3;
  const names = options.scenarios.length ? options.scenarios : Object.keys(SCENARIOS);
  const unknown = names.filter((n) => !(n in SCENARIOS));
  if (unknown.length) {
    process.stderr.write(
      `Unknown scenario(s) ${unknown.join(', ')}; projects-list has: ${Object.keys(SCENARIOS).join(', ')}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const started = new Date();
  const machineBefore = machineLine();
  const out = process.stdout;
  let failed = false;

  await withServices(
    { services: ['org'], envOverrides: { ...options.env } },
    async ({ stack, env, gatewayUrl, apiKey }) => {
      const db = new Client({ connectionString: env.env['ORG_DATABASE_URL'] });
      db.on('error', () => undefined);
      await db.connect();
      const pool = httpPool(gatewayUrl, 32);
      try {
        progress('seeding 1,000 projects (+ 20,000 in other organizations)…');
        const t0 = Date.now();
        const seeded = await seedProjects(db);
        // The Api-Key the gateway checks (auth registers it at start; auth is not running here).
        const redis = new Redis(env.env['REDIS_URL'], { keyPrefix: env.env['REDIS_KEY_PREFIX'] });
        await redis.hset('api_keys', hashApiKey(apiKey), 'bench');
        redis.disconnect();
        progress(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        const tokens = {
          member: signAccessToken(env.env['JWT_PRIVATE_KEY'], seeded.memberId),
          admin: signAccessToken(env.env['JWT_PRIVATE_KEY'], seeded.adminId),
        };
        const ctx: Ctx = { pool, apiKey, options, seeded, tokens };
        const ceilingOp = opFor(ctx, 'admin', '/v1/api/organizations/x/projects', 400);
        // CPU time of what this bench started, per closed-loop run (steadier than wall-clock
        // rates on a shared machine): org, gateway, the bench database's backends, generator.
        const metered = async (loop: () => ReturnType<typeof closedLoop>): Promise<Measured> => {
          const meter = cpuMeter({
            org: stack.services.get('org')!.child.pid!,
            gateway: stack.services.get('gateway')!.child.pid!,
            postgres: await env.backendPids('org').catch(() => []),
          });
          const result = await loop();
          return { ...result, cpu: meter.end() };
        };

        const rows: Row[] = [];
        const latencyRows: (string | number)[][] = [];
        const ceilingRuns: Measured[] = [];
        const notes: string[] = [];
        for (const name of names) {
          const scenario = SCENARIOS[name](seeded);
          const path = `${listPath(seeded)}${scenario.query ? `?${scenario.query}` : ''}`;
          const check = await checkAnswer(ctx, db, scenario, path);
          const op = opFor(ctx, scenario.caller, path, 200);
          progress(`${name}: ${check.count} projects, ${(check.bytes / 1024).toFixed(1)} KiB`);
          await warm(ctx, ceilingOp);
          await warm(ctx, op);
          const closedRuns: Measured[] = [];
          const ceilings: Measured[] = [];
          for (let r = 0; r < options.runs; r++) {
            const c = await metered(() =>
              closedLoop({ op: ceilingOp, connections: 16, durationMs: options.durationMs }),
            );
            const s = await metered(() =>
              closedLoop({ op, connections: 16, durationMs: options.durationMs }),
            );
            ceilings.push(c);
            closedRuns.push(s);
            collectErrors(notes, 'ceiling', c.errorSamples);
            collectErrors(notes, name, s.errorSamples);
            progress(
              `  run ${r + 1}/${options.runs}: ${fmtRate(s.rate)}/s (ceiling ${fmtRate(c.rate)}/s)` +
                (s.errors ? `, ${s.errors} errors` : ''),
            );
          }
          ceilingRuns.push(...ceilings);
          const throughput = summarize(closedRuns);
          const ceiling = summarize(ceilings);
          const latency = await openLoops(ctx, name, op, throughput.rate, latencyRows, notes);
          rows.push({
            name,
            scenario,
            check,
            throughput,
            ceiling,
            latency,
            cpu: cpuPerRequest(closedRuns),
            ceilingCpu: cpuPerRequest(ceilings),
          });
          if (throughput.errors + latency.errors > 0) failed = true;
          const dead = stack.dead();
          if (dead.length) throw new Error(`${dead.map((d) => d.output()).join('\n')}`);
        }
        const ceilingAll = summarize(ceilingRuns);
        const ceilingCpu = cpuPerRequest(ceilingRuns);
        await warm(ctx, ceilingOp);
        await openLoops(ctx, 'ceiling (no-op)', ceilingOp, ceilingAll.rate, latencyRows, notes);

        progress('EXPLAIN ANALYZE of the generated list SQL…');
        const plans: string[][] = [];
        for (const name of names) {
          const scenario = SCENARIOS[name](seeded);
          if (!scenario.explain) continue;
          plans.push(await explain(db, seeded, scenario, name));
        }

        out.write(
          `\nGET /organizations/{id}/projects through the gateway — ${started.toISOString().slice(0, 16)}Z\n`,
        );
        out.write(`Machine at start: ${machineBefore}\nMachine at end:   ${machineLine()}\n`);
        out.write(
          `Data: organization ${seeded.organizationId} with ${seeded.projects} projects ` +
            `(${seeded.memberships} project memberships, ${seeded.keys} key pairs); ` +
            `${seeded.otherProjects} projects in ${seeded.otherOrganizations} other organizations.\n` +
            `MEMBER caller: explicit member of ${seeded.memberVisible} projects (${seeded.memberDenied} more denied). ` +
            `ADMIN caller: sees all ${seeded.projects}.\n`,
        );
        out.write(
          `Figures: median of ${options.runs} run(s) of ${options.durationMs / 1000} s; throughput closed loop ` +
            `(16 connections), each run next to a run of the ceiling; latency open loop at ` +
            `${Math.round(options.openFraction * 100)}% of the scenario's closed-loop rate.\n` +
            `Ceiling: GET /organizations/x/projects (gateway + Api-Key + JWT + revocation check, 400 from the id pipe, no SQL).\n\n`,
        );
        printTable(
          [
            'scenario',
            'caller',
            'rows',
            'body',
            'req/s',
            'min–max',
            'ceiling/s',
            'ratio',
            'by CPU',
            'p50 / p99 (open loop)',
          ],
          rows.map((r) => [
            r.name,
            r.scenario.caller.toUpperCase(),
            r.check.count,
            `${(r.check.bytes / 1024).toFixed(1)} KiB`,
            fmtRate(r.throughput.rate),
            `${fmtRate(r.throughput.rateMin)}–${fmtRate(r.throughput.rateMax)}`,
            fmtRate(r.ceiling.rate),
            fmtPct(r.throughput.rate / r.ceiling.rate),
            r.cpu.ours && r.ceilingCpu.ours ? fmtPct(r.ceilingCpu.ours / r.cpu.ours) : '-',
            `${fmtMs(r.latency.p50)} / ${fmtMs(r.latency.p99)}`,
          ]),
        );
        out.write(
          '\nCPU ms per request, closed loop (medians; postgres = backends of the bench database;\n' +
            "ours = the sum; rest = Redis, NATS and other people's processes; cpu-bound/s = cores × 1000 / ours):\n",
        );
        printTable(
          [
            'measurement',
            'org',
            'gateway',
            'postgres',
            'generator',
            'ours',
            'rest',
            'machine busy',
            'cpu-bound/s',
          ],
          [...rows.map((r) => cpuRow(r.name, r.cpu)), cpuRow('ceiling (no-op)', ceilingCpu)],
        );
        out.write('\nQueries:\n');
        for (const r of rows) out.write(`  ${r.name.padEnd(16)} ?${r.scenario.query}\n`);
        out.write('\nLatency, open loop (from scheduled send time):\n');
        printTable(['route', 'offered/s', 'done/s', 'p50', 'p99', 'max', 'errors'], latencyRows);
        out.write('\nEXPLAIN (ANALYZE, BUFFERS) of the list query (warm cache, custom plan):\n');
        for (const lines of plans) out.write(`${lines.join('\n')}\n`);
        if (notes.length) out.write(`\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
      } finally {
        await pool.close();
        await db.end();
      }
    },
  );
  if (failed) process.exitCode = 1;
}

type Caller = 'member' | 'admin';

interface Scenario {
  caller: Caller;
  /** Query string of `GET P` (no leading `?`). */
  query: string;
  /** The same request as a repository filter (checked against the HTTP answer). */
  filter: ProjectListFilter;
  explain: boolean;
}

interface Ctx {
  pool: ReturnType<typeof httpPool>;
  apiKey: string;
  options: BenchOptions;
  seeded: Seeded;
  tokens: Record<Caller, string>;
}

interface Row {
  name: string;
  scenario: Scenario;
  check: { count: number; bytes: number };
  throughput: RunSummary;
  ceiling: RunSummary;
  latency: RunSummary;
  cpu: CpuPerRequest;
  ceilingCpu: CpuPerRequest;
}

type Measured = Awaited<ReturnType<typeof closedLoop>> & { cpu: CpuUsed };

type CpuPerRequest = Record<
  'org' | 'gateway' | 'postgres' | 'self' | 'rest' | 'ours' | 'busyShare',
  number | null
>;

/** Median CPU ms per successful request over runs, per process group; `ours` = their sum. */
function cpuPerRequest(runs: Measured[]): CpuPerRequest {
  const groups = ['org', 'gateway', 'postgres', 'self'] as const;
  const per = (key: string) =>
    median(runs.map((r) => (r.ok > 0 && r.cpu[key] !== null ? r.cpu[key] / r.ok : null)));
  return {
    org: per('org'),
    gateway: per('gateway'),
    postgres: per('postgres'),
    self: per('self'),
    rest: per('rest'),
    ours: median(
      runs.map((r) => (r.ok > 0 ? groups.reduce((n, k) => n + (r.cpu[k] ?? 0), 0) / r.ok : null)),
    ),
    busyShare: median(runs.map((r) => r.cpu.busyShare)),
  };
}

function cpuRow(name: string, cpu: CpuPerRequest): string[] {
  const ms = (v: number | null) => (v === null ? '-' : v.toFixed(2));
  return [
    name,
    ms(cpu.org),
    ms(cpu.gateway),
    ms(cpu.postgres),
    ms(cpu.self),
    ms(cpu.ours),
    ms(cpu.rest),
    fmtPct(cpu.busyShare),
    cpu.ours ? fmtRate((availableParallelism() * 1000) / cpu.ours) : '-',
  ];
}

const COMBINED = (createdAfter: Date) =>
  `user_role=ADMIN,MEMBER&min_members=2&search=a&sort=-members_count&created_after=${createdAfter.toISOString()}`;

const combinedFilter = (createdAfter: Date): ProjectListFilter => ({
  userRoles: ['ADMIN', 'MEMBER'],
  minMembers: 2,
  search: 'a',
  sort: '-members_count',
  createdAfter,
});

/** Scenarios: caller, query, and the equivalent repository filter. */
const SCENARIOS: Record<string, (s: Seeded) => Scenario> = {
  'member-default': () => ({
    caller: 'member',
    query: '',
    filter: { sort: 'name' },
    explain: false,
  }),
  'member-combined': (s) => ({
    caller: 'member',
    query: COMBINED(s.yearAgo),
    filter: combinedFilter(s.yearAgo),
    explain: true,
  }),
  'admin-default': () => ({ caller: 'admin', query: '', filter: { sort: 'name' }, explain: false }),
  'admin-combined': (s) => ({
    caller: 'admin',
    query: COMBINED(s.yearAgo),
    filter: combinedFilter(s.yearAgo),
    explain: true,
  }),
  // GET P is not paginated (docs/api.md § Projects): "deep in the list" is a window of 50
  // projects at ranks 901-950 of the creation order, selected by created_after/created_before.
  'admin-deep': (s) => ({
    caller: 'admin',
    query: `sort=created_at&created_after=${s.deepAfter.toISOString()}&created_before=${s.deepBefore.toISOString()}`,
    filter: { sort: 'created_at', createdAfter: s.deepAfter, createdBefore: s.deepBefore },
    explain: true,
  }),
};

function listPath(s: Seeded): string {
  return `/v1/api/organizations/${s.organizationId}/projects`;
}

function headers(ctx: Ctx, caller: Caller): Record<string, string> {
  return { 'api-key': ctx.apiKey, authorization: `Bearer ${ctx.tokens[caller]}` };
}

function opFor(ctx: Ctx, caller: Caller, path: string, expected: number): Operation {
  const h = headers(ctx, caller);
  return async () => {
    const res = await request(ctx.pool, { path, headers: h, raw: true });
    return res.status === expected || `status ${res.status}`;
  };
}

/**
 * One request through the gateway, compared with the repository's SQL run directly: same ids in
 * the same order (so the EXPLAIN below is of the query that answered).
 */
async function checkAnswer(
  ctx: Ctx,
  db: Client,
  scenario: Scenario,
  path: string,
): Promise<{ count: number; bytes: number }> {
  const res = await ctx.pool.request({
    method: 'GET',
    path,
    headers: headers(ctx, scenario.caller),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text}`);
  const ids = (JSON.parse(text) as { data: { id: string }[] }).data.map((p) => p.id);
  const { sql, params } = await listSql(ctx.seeded, scenario);
  const { rows } = await db.query<{ id: number }>(sql, params);
  const expected = rows.map((r) => String(r.id));
  if (ids.join() !== expected.join()) {
    throw new Error(
      `GET ${path}: ${ids.length} ids differ from the repository SQL (${expected.length})`,
    );
  }
  return { count: ids.length, bytes: Buffer.byteLength(text) };
}

/** The SQL and parameters `ProjectsRepository.list` sends for a scenario. */
async function listSql(s: Seeded, scenario: Scenario): Promise<{ sql: string; params: unknown[] }> {
  let captured: { sql: string; params: unknown[] } | undefined;
  const capture = {
    query: (sql: string, params: unknown[]) => {
      captured = { sql, params };
      return Promise.resolve([]);
    },
  } as unknown as DataSource;
  const callerId = scenario.caller === 'admin' ? s.adminId : s.memberId;
  const role = scenario.caller === 'admin' ? 'ADMIN' : 'MEMBER';
  await new ProjectsRepository(capture).list(s.organizationId, callerId, role, scenario.filter);
  return captured!;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** EXPLAIN (ANALYZE, BUFFERS) of the generated list SQL, best of 5 (warm); printable lines. */
async function explain(db: Client, s: Seeded, scenario: Scenario, name: string): Promise<string[]> {
  const { sql, params } = await listSql(s, scenario);
  let best: { Plan: PlanNode; 'Planning Time': number; 'Execution Time': number } | undefined;
  for (let i = 0; i < 5; i++) {
    const { rows } = await db.query<{ 'QUERY PLAN': [typeof best] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
      params,
    );
    const plan = rows[0]['QUERY PLAN'][0]!;
    if (!best || plan['Execution Time'] < best['Execution Time']) best = plan;
  }
  const textRows = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, COSTS OFF) ${sql}`,
    params,
  );
  const text = textRows.rows.map((r) => `      ${r['QUERY PLAN']}`);
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Relation Name']) {
      scans.push(
        `${node['Node Type']} on ${node['Relation Name']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}` +
          ` (rows ${node['Actual Rows']} × ${node['Actual Loops']})`,
      );
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(best!.Plan);
  const seq = scans.filter((x) => x.startsWith('Seq Scan'));
  return [
    `  ${name} (${scenario.caller.toUpperCase()}): top node ${best!.Plan['Node Type']}, ` +
      `planning ${best!['Planning Time'].toFixed(3)} ms, execution ${best!['Execution Time'].toFixed(3)} ms, ` +
      `${seq.length ? `SEQ SCANS: ${seq.length}` : 'no sequential scan'}`,
    ...scans.map((x) => `    ${x}`),
    '    plan:',
    ...text,
  ];
}

async function warm(ctx: Ctx, op: Operation): Promise<void> {
  if (ctx.options.warmupMs > 0) {
    await closedLoop({ op, connections: 16, durationMs: ctx.options.warmupMs });
  }
}

/** Open-loop runs at `fraction × closedRate`; appends a latency row; medians. */
async function openLoops(
  ctx: Ctx,
  name: string,
  op: Operation,
  closedRate: number,
  latencyRows: (string | number)[][],
  notes: string[],
): Promise<RunSummary> {
  const raw = Math.max(1, closedRate * ctx.options.openFraction);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 1);
  const rate = Math.max(1, Math.round(raw / magnitude) * magnitude);
  const runs = [];
  for (let r = 0; r < ctx.options.runs; r++) {
    const result = await openLoop({ op, rate, durationMs: ctx.options.durationMs });
    runs.push(result);
    collectErrors(notes, name, result.errorSamples);
    progress(
      `  open loop ${r + 1}/${ctx.options.runs} ${name} @ ${rate}/s: p50 ${fmtMs(result.p50)}, p99 ${fmtMs(result.p99)}` +
        (result.lagP99 > 10 ? ` (sender lag p99 ${fmtMs(result.lagP99)})` : ''),
    );
  }
  if (runs.some((r) => r.lagP99 > 10)) {
    notes.push(
      `${name}: the generator fell behind schedule (lag p99 > 10 ms); latencies include it.`,
    );
  }
  const s = summarize(runs);
  latencyRows.push([
    name,
    fmtRate(rate),
    fmtRate(s.rate),
    fmtMs(s.p50),
    fmtMs(s.p99),
    fmtMs(Math.max(...runs.map((r) => r.max ?? 0))),
    s.errors,
  ]);
  return s;
}

function collectErrors(notes: string[], name: string, samples: [string, number][]): void {
  for (const [reason, n] of samples) notes.push(`${name}: ${n}× ${reason}`);
}

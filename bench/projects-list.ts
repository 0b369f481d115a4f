import { hashApiKey } from '@wp/security';
import { signAccessToken } from '@wp/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { cpuMeter } from './lib/cpu.js';
import { machineLine, withServices } from './lib/harness.js';
import { closedLoop, httpPool } from './lib/load.js';
import { parseOptions, USAGE, type BenchOptions } from './lib/options.js';
import { fmtRate, progress } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { seedProjects } from './support/projects-seed.js';
import { cpuPerRequest, type Measured } from './projects-list/cpu.js';
import { explain } from './projects-list/explain.js';
import { collectErrors, openLoops, warm } from './projects-list/loops.js';
import { printReport, type Row } from './projects-list/report.js';
import { checkAnswer, opFor, type Ctx } from './projects-list/requests.js';
import { listPath, SCENARIOS } from './projects-list/scenarios.js';

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
        // The longest lifetime the services accept (ACCESS_TOKEN_MAX_LIFETIME_SECONDS).
        const tokens = {
          member: await signAccessToken(env.env['JWT_PRIVATE_KEY'], seeded.memberId, {}, 3600),
          admin: await signAccessToken(env.env['JWT_PRIVATE_KEY'], seeded.adminId, {}, 3600),
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

        printReport({
          started,
          machineBefore,
          options,
          seeded,
          rows,
          ceilingCpu,
          latencyRows,
          plans,
          notes,
        });
      } finally {
        await pool.close();
        await db.end();
      }
    },
  );
  if (failed) process.exitCode = 1;
}

import { parseArgs } from 'node:util';
import { AnalyticsTestApp } from '../apps/analytics/test/support/analytics-test-app.js';
import { httpOperation, httpPool, openLoop } from './lib/load.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description =
  'analytics reads over 1M observations: traces list/detail, daily metrics';

const PER_TRACE = 10;
const DAYS = 30;

/**
 * Read latency with 1M observations (docs/analytics.md § Benchmarks). Seeds one project with
 * `--traces` traces (default 100k) × 10 observations over 30 days straight in PostgreSQL
 * (generate_series; the rollup is built by the same grouping the ingest path maintains), then
 * drives each read endpoint with the open-loop generator (latency from each request's due time)
 * at `--rate` requests/s for `--duration` seconds and prints p50/p99/max. `--only TEXT` runs the
 * scenarios whose name contains TEXT; `--keep` keeps the seeded database.
 *
 *   npm run bench -- analytics-reads [--traces 100000] [--rate 50] [--duration 15] [--only …]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      traces: { type: 'string', default: '100000' },
      rate: { type: 'string', default: '50' },
      duration: { type: 'string', default: '15' },
      only: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const TRACES = Number(values.traces);
  const RATE = Number(values.rate);
  const SECONDS = Number(values.duration);
  const ONLY = values.only;
  const ctx = await AnalyticsTestApp.start({ LOG_LEVEL: 'warn' });
  const pool = httpPool(ctx.baseUrl, 32);
  try {
    const project = await ctx.createProject();
    const p = project.projectId;
    const ds = ctx.dataSource;
    const end = Date.UTC(2025, 5, 1);
    const t0 = performance.now();
    await ds.query(
      `INSERT INTO trace (project_id, id, timestamp, name, user_id, session_id, tags, metadata, input)
         SELECT $1, 'trace-' || g,
                to_timestamp($2::double precision / 1000) - (g * ($3::double precision / $4)) * interval '1 second',
                'name-' || (g % 10), 'user-' || (g % 50), 'session-' || (g % 5000),
                CASE g % 4 WHEN 0 THEN ARRAY['prod'] WHEN 1 THEN ARRAY['prod','web'] WHEN 2 THEN ARRAY['dev'] ELSE ARRAY[]::text[] END,
                jsonb_build_object('n', g), jsonb_build_object('q', 'question ' || g)
         FROM generate_series(1, $4) g`,
      [p, end, DAYS * 86_400, TRACES],
    );
    await ds.query(
      `INSERT INTO observation (project_id, id, trace_id, type, name, start_time, end_time, model,
            usage_details, cost_details, input_usage, output_usage, total_usage, total_cost, input, output)
         SELECT t.project_id, t.id || '-' || k, t.id,
                CASE WHEN k % 2 = 0 THEN 'GENERATION' ELSE 'SPAN' END, 'step-' || k,
                t.timestamp + k * interval '100 milliseconds', t.timestamp + (k + 1) * interval '100 milliseconds',
                CASE WHEN k % 2 = 0 THEN (ARRAY['gpt-4o','gpt-4o-mini','claude-3-5-sonnet'])[1 + k % 3] END,
                CASE WHEN k % 2 = 0 THEN '{"input":500,"output":50,"total":550}'::jsonb ELSE '{}'::jsonb END,
                CASE WHEN k % 2 = 0 THEN '{"total":0.00175}'::jsonb ELSE '{}'::jsonb END,
                CASE WHEN k % 2 = 0 THEN 500 ELSE 0 END, CASE WHEN k % 2 = 0 THEN 50 ELSE 0 END,
                CASE WHEN k % 2 = 0 THEN 550 ELSE 0 END, CASE WHEN k % 2 = 0 THEN 0.00175 END,
                '"in"'::jsonb, '"out"'::jsonb
         FROM trace t CROSS JOIN generate_series(0, $2 - 1) k WHERE t.project_id = $1`,
      [p, PER_TRACE],
    );
    // The rollup, grouped exactly as refreshRollups maintains it on ingest.
    await ds.query(
      `INSERT INTO daily_trace_rollup (project_id, day, trace_name, user_id, tags, count_traces)
         SELECT project_id, (timestamp AT TIME ZONE 'UTC')::date, coalesce(name, ''), coalesce(user_id, ''), tags, count(*)
         FROM trace WHERE project_id = $1 GROUP BY 1, 2, 3, 4, 5`,
      [p],
    );
    await ds.query(
      `INSERT INTO daily_usage_rollup (project_id, day, trace_name, user_id, tags, model, count_observations,
            count_traces, input_usage, output_usage, total_usage, total_cost)
         SELECT o.project_id, (o.start_time AT TIME ZONE 'UTC')::date, coalesce(t.name, ''), coalesce(t.user_id, ''),
                t.tags, coalesce(o.model, ''), count(*), count(DISTINCT o.trace_id), sum(o.input_usage),
                sum(o.output_usage), sum(o.total_usage), coalesce(sum(o.total_cost), 0)
         FROM observation o JOIN trace t ON t.project_id = o.project_id AND t.id = o.trace_id
         WHERE o.project_id = $1 GROUP BY 1, 2, 3, 4, 5, 6`,
      [p],
    );
    await ds.query(`VACUUM ANALYZE trace`);
    await ds.query(`VACUUM ANALYZE observation`);
    await ds.query(`ANALYZE daily_trace_rollup`);
    await ds.query(`ANALYZE daily_usage_rollup`);
    const [{ n }] = await ds.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM observation WHERE project_id = $1`,
      [p],
    );
    print(
      `analytics reads: seeded ${TRACES} traces, ${n} observations over ${DAYS} days in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    const headers = { authorization: project.basic };
    const from = new Date(end - DAYS * 86_400_000).toISOString();
    const to = new Date(end + 86_400_000).toISOString();
    const scenarios: [string, (i: number) => string, number?][] = [
      ['GET /api/public/traces (newest 50)', () => '/api/public/traces'],
      [
        'GET /api/public/traces?userId=…&page=3',
        (i) => `/api/public/traces?userId=user-${i % 50}&page=3`,
      ],
      [
        'GET /api/public/traces?tags=prod&tags=web&limit=100',
        () => '/api/public/traces?tags=prod&tags=web&limit=100',
      ],
      [
        'GET /api/public/traces?name=…&from/to (1 day)',
        (i) =>
          `/api/public/traces?name=name-${i % 10}&fromTimestamp=${new Date(end - 5 * 86_400_000).toISOString()}&toTimestamp=${new Date(end - 4 * 86_400_000).toISOString()}`,
      ],
      [
        'GET /api/public/traces/{id}',
        (i) => `/api/public/traces/trace-${1 + ((i * 7919) % TRACES)}`,
      ],
      [
        'GET /api/public/metrics/daily (30 days)',
        () => `/api/public/metrics/daily?fromTimestamp=${from}&toTimestamp=${to}`,
      ],
      [
        'GET /api/public/metrics/daily?userId&tags (partial edges)',
        (i) =>
          `/api/public/metrics/daily?fromTimestamp=${new Date(end - DAYS * 86_400_000 + 3_600_000).toISOString()}&toTimestamp=${new Date(end - 3_600_000).toISOString()}&userId=user-${i % 50}&tags=prod`,
        10,
      ],
      [
        'GET /api/public/metrics/daily (partial edges, no filter)',
        () =>
          `/api/public/metrics/daily?fromTimestamp=${new Date(end - DAYS * 86_400_000 + 3_600_000).toISOString()}&toTimestamp=${new Date(end - 3_600_000).toISOString()}`,
        10,
      ],
    ];
    for (const [name, path, scenarioRate] of scenarios.filter(([n]) => !ONLY || n.includes(ONLY))) {
      const rate = Math.min(RATE, scenarioRate ?? RATE);
      let i = 0;
      const op = httpOperation(pool, () => ({ path: path(i++), headers }));
      await openLoop({ op, rate: Math.min(rate, 10), durationMs: 1000 }); // warm-up
      const r = await openLoop({ op, rate, durationMs: SECONDS * 1000 });
      const ms = (v: number | null) => (v ?? NaN).toFixed(2);
      print(
        `  ${name}: p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms` +
          ` (${r.ok + r.errors} requests at ${rate}/s, ${r.errors} errors, send lag p99 ${r.lagP99.toFixed(1)} ms)`,
      );
      if (r.errors > 0) process.exitCode = 1;
    }
  } finally {
    await pool.close();
    if (values.keep) {
      print(`  kept database ${ctx.env.databaseUrl('analytics')} (--keep)`);
      await ctx.app.close();
    } else {
      await ctx.close();
    }
  }
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

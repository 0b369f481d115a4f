import { Pool } from 'undici';
import { AnalyticsTestApp } from '../apps/analytics/test/support/analytics-test-app.js';
import { ms, openLoop, print } from './analytics-bench-support.js';

/**
 * Read latency with 1M observations (issue 9 benchmark). Seeds one project with
 * `BENCH_TRACES` traces (default 100k) × 10 observations over 30 days straight in PostgreSQL
 * (generate_series; the rollup is built by the same grouping the ingest path maintains), then
 * drives each read endpoint with an open-loop generator at `BENCH_RATE` requests/s for
 * `BENCH_SECONDS` seconds and prints p50/p99/max.
 */
const TRACES = Number(process.env['BENCH_TRACES'] ?? 100_000);
const PER_TRACE = 10;
const RATE = Number(process.env['BENCH_RATE'] ?? 50);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 15);
const ONLY = process.env['BENCH_ONLY'];
const DAYS = 30;

describe('analytics reads benchmark', () => {
  it('measures traces list, trace detail and daily metrics latency over 1M observations', async () => {
    const ctx = await AnalyticsTestApp.start({ LOG_LEVEL: 'warn' });
    const pool = new Pool(ctx.baseUrl, { connections: 32 });
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
      for (const [name, path, scenarioRate] of scenarios.filter(
        ([n]) => !ONLY || n.includes(ONLY),
      )) {
        const rate = Math.min(RATE, scenarioRate ?? RATE);
        await openLoop(pool, Math.min(rate, 10), 1000, (i) => ({ path: path(i), headers })); // warm-up
        const r = await openLoop(pool, rate, SECONDS * 1000, (i) => ({ path: path(i), headers }));
        print(
          `  ${name}: p50 ${ms(r.latency, 50)} ms, p99 ${ms(r.latency, 99)} ms, max ${ms(r.latency, 100)} ms` +
            ` (${r.sent} requests at ${rate}/s, ${r.errors} errors)`,
        );
        expect(r.errors).toBe(0);
      }
    } finally {
      await pool.close();
      if (process.env['BENCH_KEEP'] === '1') {
        print(`  kept database ${ctx.env.databaseUrl('analytics')} (BENCH_KEEP=1)`);
        await ctx.app.close();
      } else {
        await ctx.close();
      }
    }
  });
});

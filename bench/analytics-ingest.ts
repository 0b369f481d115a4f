import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { AnalyticsTestApp } from '../apps/analytics/test/support/analytics-test-app.js';
import { histogram, ms, print } from './analytics-bench-support.js';

/**
 * Ingestion throughput (issue 9 benchmark): batches of 100 Langfuse events (per batch 20 traces,
 * each with a trace-create, two generation-creates with usage and a span-create plus its
 * span-update) posted to `POST /api/public/ingestion` by `CONCURRENCY` closed-loop senders, as
 * SDK flushes arrive. Prints events/s and batch latency. Bounded: `BATCHES` batches.
 */
const BATCHES = Number(process.env['BENCH_BATCHES'] ?? 400);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 8);

function batch(): unknown[] {
  const now = Date.now();
  const events: unknown[] = [];
  for (let t = 0; t < 20; t++) {
    const traceId = randomUUID();
    const spanId = randomUUID();
    const ts = new Date(now - t * 1000).toISOString();
    const e = (type: string, body: object) => ({ id: randomUUID(), timestamp: ts, type, body });
    events.push(
      e('trace-create', {
        id: traceId,
        timestamp: ts,
        name: `bench-${t % 5}`,
        userId: `user-${t % 50}`,
        tags: ['bench', `t${t % 3}`],
        input: { q: 'hello' },
      }),
      e('generation-create', {
        id: randomUUID(),
        traceId,
        startTime: ts,
        model: 'gpt-4o',
        usage: { input: 500, output: 50 },
        input: [{ role: 'user', content: 'hi' }],
      }),
      e('generation-create', {
        id: randomUUID(),
        traceId,
        startTime: ts,
        model: 'claude-3-5-sonnet',
        usage: { input: 300, output: 30 },
      }),
      e('span-create', { id: spanId, traceId, startTime: ts, name: 'retrieve' }),
      e('span-update', {
        id: spanId,
        traceId,
        endTime: new Date(now - t * 1000 + 120).toISOString(),
        output: { hits: 3 },
      }),
    );
  }
  return events;
}

describe('analytics ingestion benchmark', () => {
  it('measures events per second with batches of 100', async () => {
    const ctx = await AnalyticsTestApp.start({
      LOG_LEVEL: 'warn',
      ANALYTICS_WRITE_CONCURRENCY: process.env['ANALYTICS_WRITE_CONCURRENCY'] ?? '1',
    });
    const pool = new Pool(ctx.baseUrl, { connections: CONCURRENCY });
    try {
      const project = await ctx.createProject();
      const bodies = Array.from({ length: Math.min(BATCHES, 50) }, () =>
        JSON.stringify({ batch: batch() }),
      );
      const post = async (body: string) => {
        const res = await pool.request({
          method: 'POST',
          path: '/api/public/ingestion',
          headers: { authorization: project.basic, 'content-type': 'application/json' },
          body,
        });
        const text = await res.body.text();
        if (res.statusCode !== 207 || !text.includes('"errors":[]'))
          throw new Error(`${res.statusCode} ${text.slice(0, 200)}`);
      };
      for (let i = 0; i < 5; i++) await post(JSON.stringify({ batch: batch() })); // warm-up

      const latency = histogram();
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < BATCHES) {
            const i = next++;
            // fresh ids per batch: replaying a body would only exercise dedupe
            const body = i < bodies.length ? bodies[i] : JSON.stringify({ batch: batch() });
            const t0 = performance.now();
            await post(body);
            latency.recordValue(Math.round((performance.now() - t0) * 1000));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const events = BATCHES * 100;
      const [{ traces, observations }] = await ctx.dataSource.query<
        { traces: number; observations: number }[]
      >(
        `SELECT (SELECT count(*) FROM trace)::int AS traces, (SELECT count(*) FROM observation)::int AS observations`,
      );
      print(
        `analytics ingestion: ${BATCHES} batches × 100 events, ${CONCURRENCY} concurrent senders`,
      );
      print(
        `  ${Math.round(events / seconds)} events/s (${(BATCHES / seconds).toFixed(1)} batches/s) over ${seconds.toFixed(1)} s`,
      );
      print(
        `  batch latency p50 ${ms(latency, 50)} ms, p99 ${ms(latency, 99)} ms, max ${ms(latency, 100)} ms`,
      );
      print(`  stored: ${traces} traces, ${observations} observations`);
      expect(observations).toBeGreaterThanOrEqual(BATCHES * 60);
    } finally {
      await pool.close();
      await ctx.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { AnalyticsTestApp } from '../apps/analytics/test/support/analytics-test-app.js';
import { closedLoop, httpPool, request } from './lib/load.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description = 'analytics ingestion: batches of 100 Langfuse events, events/s';

/**
 * Ingestion throughput (docs/analytics.md § Benchmarks): batches of 100 Langfuse events (per
 * batch 20 traces, each with a trace-create, two generation-creates with usage and a span-create
 * plus its span-update) posted to `POST /api/public/ingestion` by `--concurrency` closed-loop
 * senders for `--duration` seconds, as SDK flushes arrive. Every batch has fresh ids (replaying
 * a body would only exercise dedupe). Prints events/s and the closed-loop batch latency, then
 * checks what was stored. Starts the analytics service in this process on a fresh database.
 *
 *   npm run bench -- analytics-ingest [--duration 20] [--concurrency 8] [--write-concurrency 1]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '8' },
      /** `ANALYTICS_WRITE_CONCURRENCY` of the service (group-commit transactions at once). */
      'write-concurrency': { type: 'string', default: '1' },
    },
  });
  const seconds = Number(values.duration);
  const concurrency = Number(values.concurrency);
  const ctx = await AnalyticsTestApp.start({
    LOG_LEVEL: 'warn',
    ANALYTICS_WRITE_CONCURRENCY: values['write-concurrency'],
  });
  const pool = httpPool(ctx.baseUrl, concurrency);
  try {
    const project = await ctx.createProject();
    const post = async (): Promise<true | string> => {
      const { status, json } = await request(pool, {
        method: 'POST',
        path: '/api/public/ingestion',
        headers: { authorization: project.basic },
        body: JSON.stringify({ batch: batch() }),
      });
      return status === 207 && Array.isArray(json?.errors) && json.errors.length === 0
        ? true
        : `${status} ${JSON.stringify(json).slice(0, 200)}`;
    };
    for (let i = 0; i < 5; i++) await post(); // warm-up

    const result = await closedLoop({
      op: post,
      connections: concurrency,
      durationMs: seconds * 1000,
    });
    const [{ traces, observations }] = await ctx.dataSource.query<
      { traces: number; observations: number }[]
    >(
      `SELECT (SELECT count(*) FROM trace)::int AS traces, (SELECT count(*) FROM observation)::int AS observations`,
    );
    const ms = (v: number | null) => (v ?? NaN).toFixed(2);
    print(
      `analytics ingestion: batches of 100 events, ${concurrency} concurrent senders, ${seconds} s`,
    );
    print(
      `  ${Math.round(result.rate * 100)} events/s (${result.rate.toFixed(1)} batches/s, ${result.ok} batches, ${result.errors} failed)`,
    );
    print(
      `  batch latency (closed loop) p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms`,
    );
    print(`  stored: ${traces} traces, ${observations} observations`);
    for (const [message, count] of result.errorSamples) print(`  failed ×${count}: ${message}`);
    if (result.errors > 0 || observations < (result.ok + 5) * 60) process.exitCode = 1;
  } finally {
    await pool.close();
    await ctx.close();
  }
}

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

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

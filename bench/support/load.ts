import { performance } from 'node:perf_hooks';
import * as hdr from 'hdr-histogram-js';
import type { Pool } from 'undici';

/** One HTTP request of a scenario. */
export interface BenchRequest {
  method: 'POST' | 'GET';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ClosedLoopResult {
  /** Requests answered 2xx per second. */
  rate: number;
  ok: number;
  errors: number;
  /** Status codes (or error names) of failures, with counts. */
  failures: Record<string, number>;
}

export interface OpenLoopResult {
  /** Offered rate, requests per second. */
  offered: number;
  /** Answered 2xx per second. */
  rate: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  errors: number;
}

/**
 * Throughput: `connections` clients, each sending its next request as soon as the previous
 * one is answered, for `seconds`.
 */
export async function closedLoop(
  pool: Pool,
  connections: number,
  seconds: number,
  next: () => BenchRequest,
): Promise<ClosedLoopResult> {
  const failures: Record<string, number> = {};
  let ok = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const outcome = await send(pool, next());
      if (outcome === 'ok') ok++;
      else {
        errors++;
        failures[outcome] = (failures[outcome] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  const elapsed = (performance.now() - start) / 1000;
  return { rate: ok / elapsed, ok, errors, failures };
}

/**
 * Latency without coordinated omission: requests are offered at a fixed `rate` whatever the
 * answers do (open loop), over `connections` keep-alive connections; each latency is measured
 * from the moment the request was due, so queueing in the client counts too. Milliseconds.
 */
export async function openLoop(
  pool: Pool,
  rate: number,
  seconds: number,
  next: () => BenchRequest,
): Promise<OpenLoopResult> {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3 });
  let ok = 0;
  let errors = 0;
  const pending: Promise<void>[] = [];
  const interval = 1000 / rate;
  const start = performance.now();
  const total = Math.floor(rate * seconds);
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && start + sent * interval <= now) {
      const due = start + sent * interval;
      pending.push(
        send(pool, next()).then((outcome) => {
          histogram.recordValue(Math.max(1, Math.round((performance.now() - due) * 1000)));
          if (outcome === 'ok') ok++;
          else errors++;
        }),
      );
      sent++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  const result = {
    offered: rate,
    rate: ok / elapsed,
    p50: histogram.getValueAtPercentile(50) / 1000,
    p99: histogram.getValueAtPercentile(99) / 1000,
    max: histogram.maxValue / 1000,
    ok,
    errors,
  };
  histogram.destroy();
  return result;
}

async function send(pool: Pool, request: BenchRequest): Promise<string> {
  try {
    const res = await pool.request({
      method: request.method,
      path: request.path,
      headers: request.headers,
      body: request.body,
    });
    await res.body.dump();
    return res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : String(res.statusCode);
  } catch (error) {
    return (error as Error).name;
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Types of load.js for TypeScript benches (bench/*.ts); the implementation is plain CommonJS.
import type { Pool } from 'undici';

/** One operation: sends a request; `true` = the expected answer, anything else names a failure. */
export type Operation = (ctx: { worker: number | null }) => Promise<true | string | false>;

export interface LoopResult {
  mode: 'closed' | 'open';
  /** Successes per second. */
  rate: number;
  ok: number;
  errors: number;
  /** Milliseconds, or null when nothing was recorded. */
  p50: number | null;
  p99: number | null;
  max: number | null;
  errorSamples: [string, number][];
}

export interface OpenLoopResult extends LoopResult {
  /** Offered rate, requests per second. */
  target: number;
  /** How late sends left compared to schedule, p99, ms. */
  lagP99: number;
}

/** One HTTP request of a scenario (the body as sent, e.g. JSON text). */
export interface BenchRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export function httpPool(origin: string, connections: number): Pool;
/** Sends `next()` on `pool`, drops the body: true for 2xx, else `HTTP <status>`. */
export function httpOperation(pool: Pool, next: () => BenchRequest): Operation;
export function request(
  pool: Pool,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: unknown;
    raw?: boolean;
  },
): Promise<{ status: number; json?: any }>;
export function closedLoop(options: {
  op: Operation;
  connections: number;
  durationMs: number;
}): Promise<LoopResult & { elapsedMs: number }>;
export function openLoop(options: {
  op: Operation;
  rate: number;
  durationMs: number;
  drainMs?: number;
}): Promise<OpenLoopResult>;

import { readFileSync } from 'node:fs';
import type { Platform, PlatformApp } from '../support/platform.js';

/** One app's memory at one moment, in bytes (null when it could not be read). */
export interface MemorySample {
  rss: number | null;
  heapUsed: number | null;
  external: number | null;
}

export interface MemoryRow {
  /** Seconds since the load started. */
  at: number;
  apps: Partial<Record<PlatformApp, MemorySample>>;
}

/** Resident set size of a process (`VmRSS` of /proc/<pid>/status), bytes. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Where an app's Prometheus metrics are read. Today `/metrics` on its HTTP port
 * (docs/operations.md § Metrics); the one place to change if metrics move to a port of their own.
 */
export function metricsUrl(platform: Platform, app: PlatformApp): string {
  return `${platform.url(app)}/metrics`;
}

/** The value of an unlabelled (or `service`-labelled) gauge in Prometheus text format. */
export function gauge(text: string, name: string): number | null {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : null;
}

/** RSS from /proc, V8 heap used and external memory from prom-client's default metrics. */
export async function sampleMemory(
  platform: Platform,
  apps: readonly PlatformApp[],
): Promise<Partial<Record<PlatformApp, MemorySample>>> {
  const pids = platform.pids();
  const out: Partial<Record<PlatformApp, MemorySample>> = {};
  await Promise.all(
    apps.map(async (app) => {
      const pid = pids[app];
      const text = await fetch(metricsUrl(platform, app), { signal: AbortSignal.timeout(10_000) })
        .then((res) => (res.ok ? res.text() : ''))
        .catch(() => '');
      out[app] = {
        rss: pid ? residentBytes(pid) : null,
        heapUsed: gauge(text, 'nodejs_heap_size_used_bytes'),
        external: gauge(text, 'nodejs_external_memory_bytes'),
      };
    }),
  );
  return out;
}

export const mb = (bytes: number | null | undefined): string =>
  bytes === null || bytes === undefined ? '–' : (bytes / 1_048_576).toFixed(0);

/** Growth of `field` from the sample nearest `fromSeconds` to the last, percent. */
export function growth(
  rows: MemoryRow[],
  app: PlatformApp,
  field: keyof MemorySample,
  fromSeconds: number,
): { from: number | null; to: number | null; percent: number | null } {
  if (rows.length === 0) return { from: null, to: null, percent: null };
  const base = rows.reduce((best, row) =>
    Math.abs(row.at - fromSeconds) < Math.abs(best.at - fromSeconds) ? row : best,
  );
  const from = base.apps[app]?.[field] ?? null;
  const to = rows[rows.length - 1].apps[app]?.[field] ?? null;
  const percent = from && to !== null ? (100 * (to - from)) / from : null;
  return { from, to, percent };
}

// CPU milliseconds per successful request of the projects-list measurements, and their table row.
import { availableParallelism } from 'node:os';
import type { CpuUsed } from '../lib/cpu.js';
import type { closedLoop } from '../lib/load.js';
import { fmtPct, fmtRate } from '../lib/report.js';
import { median } from '../lib/stats.js';

export type Measured = Awaited<ReturnType<typeof closedLoop>> & { cpu: CpuUsed };

export type CpuPerRequest = Record<
  'org' | 'gateway' | 'postgres' | 'self' | 'rest' | 'ours' | 'busyShare',
  number | null
>;

/** Median CPU ms per successful request over runs, per process group; `ours` = their sum. */
export function cpuPerRequest(runs: Measured[]): CpuPerRequest {
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

export function cpuRow(name: string, cpu: CpuPerRequest): string[] {
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

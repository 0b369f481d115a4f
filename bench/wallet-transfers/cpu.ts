// CPU time from /proc for the wallet-transfers bench: of one process, and of every PostgreSQL
// server process.
import { readdirSync, readFileSync } from 'node:fs';

/** utime + stime of a process, ms (Linux /proc; NaN elsewhere). */
export function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * CPU ms of every PostgreSQL server process on this machine (backends, WAL writer,
 * checkpointer: all of a commit's cost), by pid; given an earlier reading, the CPU spent since
 * (processes started since count whole, ones that exited are lost). NaN-free: a server that is
 * not local reads as 0.
 */
export function postgresCpuMs(): Map<number, number>;
export function postgresCpuMs(since: Map<number, number>): number;
export function postgresCpuMs(since?: Map<number, number>): Map<number, number> | number {
  const now = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const ms = cpuMs(Number(entry));
    if (Number.isFinite(ms)) now.set(Number(entry), ms);
  }
  if (!since) return now;
  let spent = 0;
  for (const [pid, ms] of now) spent += ms - (since.get(pid) ?? 0);
  return spent;
}

/** Kernel clock ticks per second (`getconf CLK_TCK`), 100 on Linux in practice. */
const CLOCK_TICKS = 100;

// Types of cpu.js for TypeScript benches.
export interface CpuUsed {
  /** CPU ms per named process group (null when unreadable), `self` = this process. */
  [group: string]: number | null;
  self: number;
  /** Everything else on the machine, ms. */
  rest: number | null;
  /** Busy share of the machine over the measurement, 0-1. */
  busyShare: number | null;
}

/** `mainThreads`: {name: pid} of processes in `pids` whose main thread is also reported alone. */
export function cpuMeter(
  pids: Record<string, number | number[]>,
  mainThreads?: Record<string, number>,
): { end(): CpuUsed };

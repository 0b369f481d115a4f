// Types of stats.js for TypeScript benches.
export interface RunSummary {
  runs: number;
  rate: number;
  rateMin: number;
  rateMax: number;
  p50: number | null;
  p99: number | null;
  errors: number;
  perRun: { rate: number; p50: number | null; p99: number | null; errors: number }[];
}

export function median(values: (number | null)[]): number | null;
export function summarize(
  runs: { rate: number; p50: number | null; p99: number | null; errors: number }[],
): RunSummary;

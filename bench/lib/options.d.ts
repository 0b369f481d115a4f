// Types of options.js for TypeScript benches.
export interface BenchOptions {
  runs: number;
  durationMs: number;
  warmupMs: number;
  openFraction: number;
  scenarios: string[];
  env: Record<string, string>;
}

export function parseOptions(argv: string[]): BenchOptions;
export const USAGE: string;

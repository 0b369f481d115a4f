// Types of report.js for TypeScript benches.
export function fmtRate(value: number | null | undefined): string;
export function fmtMs(value: number | null | undefined): string;
export function fmtPct(value: number | null | undefined): string;
export function printTable(
  headers: string[],
  rows: (string | number | null | undefined)[][],
  out?: NodeJS.WritableStream,
): void;
export function progress(message: string): void;

// Timestamped progress lines of the wallet-transfers bench, and the failures a loop kept.

/** The failures a loop kept (its first few kinds, with counts). */
export function fmtFailures(entries: [string, number][]): string {
  return entries.length ? `: ${entries.map(([k, v]) => `${k}×${v}`).join(', ')}` : '';
}

export function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/**
 * Totals of one Prometheus histogram (or summary) of a service: `<name>_sum` and
 * `<name>_count` from its `GET /metrics` (text exposition format 0.0.4): the first sample of
 * each, so meant for metrics without labels. Missing series read as 0. Tests and
 * benchmarks diff two readings to see what happened in between (e.g. movements per ledger
 * call from `wallet_ledger_batch_size`).
 * @param baseUrl the service's metrics listener (`METRICS_PORT`; docs/operations.md § Metrics),
 *   not its API port
 */
export async function histogramTotals(
  baseUrl: string,
  name: string,
): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (series: string) =>
    Number(new RegExp(`^${series}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { sum: value(`${name}_sum`), count: value(`${name}_count`) };
}

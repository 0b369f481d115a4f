// Warm-ups and open-loop latency runs of the projects-list bench, with their failures as notes.
import { closedLoop, openLoop, type Operation } from '../lib/load.js';
import { fmtMs, fmtRate, progress } from '../lib/report.js';
import { summarize, type RunSummary } from '../lib/stats.js';
import type { Ctx } from './requests.js';

export async function warm(ctx: Ctx, op: Operation): Promise<void> {
  if (ctx.options.warmupMs > 0) {
    await closedLoop({ op, connections: 16, durationMs: ctx.options.warmupMs });
  }
}

/** Open-loop runs at `fraction × closedRate`; appends a latency row; medians. */
export async function openLoops(
  ctx: Ctx,
  name: string,
  op: Operation,
  closedRate: number,
  latencyRows: (string | number)[][],
  notes: string[],
): Promise<RunSummary> {
  const raw = Math.max(1, closedRate * ctx.options.openFraction);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 1);
  const rate = Math.max(1, Math.round(raw / magnitude) * magnitude);
  const runs = [];
  for (let r = 0; r < ctx.options.runs; r++) {
    const result = await openLoop({ op, rate, durationMs: ctx.options.durationMs });
    runs.push(result);
    collectErrors(notes, name, result.errorSamples);
    progress(
      `  open loop ${r + 1}/${ctx.options.runs} ${name} @ ${rate}/s: p50 ${fmtMs(result.p50)}, p99 ${fmtMs(result.p99)}` +
        (result.lagP99 > 10 ? ` (sender lag p99 ${fmtMs(result.lagP99)})` : ''),
    );
  }
  if (runs.some((r) => r.lagP99 > 10)) {
    notes.push(
      `${name}: the generator fell behind schedule (lag p99 > 10 ms); latencies include it.`,
    );
  }
  const s = summarize(runs);
  latencyRows.push([
    name,
    fmtRate(rate),
    fmtRate(s.rate),
    fmtMs(s.p50),
    fmtMs(s.p99),
    fmtMs(Math.max(...runs.map((r) => r.max ?? 0))),
    s.errors,
  ]);
  return s;
}

export function collectErrors(notes: string[], name: string, samples: [string, number][]): void {
  for (const [reason, n] of samples) notes.push(`${name}: ${n}× ${reason}`);
}

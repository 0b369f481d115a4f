// How the auth suite measures: warm-ups, closed-loop runs interleaved with their ceiling and
// metered for CPU, and open-loop latency runs.
'use strict';
const { cpuMeter } = require('../lib/cpu.js');
const { closedLoop, openLoop } = require('../lib/load.js');
const { fmtMs, fmtRate, progress } = require('../lib/report.js');
const { summarize } = require('../lib/stats.js');
const { cpuPerRequest, cpuRow } = require('./cpu.js');

async function warmup(name, op, connections, options) {
  if (options.warmupMs <= 0) return;
  progress(`  warm-up ${name} (${options.warmupMs / 1000} s)`);
  await closedLoop({ op, connections, durationMs: options.warmupMs });
}

/** Interleaves runs of several measurements (so machine noise hits them alike); medians. */
async function interleaved(ctx, measurements) {
  const { options } = ctx;
  const runs = measurements.map(() => []);
  for (let r = 0; r < options.runs; r++) {
    for (const [i, m] of measurements.entries()) {
      const result = await m.once();
      runs[i].push(result);
      progress(
        `  run ${r + 1}/${options.runs} ${m.name}: ${fmtRate(result.rate)}/s` +
          (result.errors
            ? ` (${result.errors} errors: ${result.errorSamples.map(([k]) => k).join('; ')})`
            : ''),
      );
    }
  }
  return runs.map((list, i) => {
    const s = summarize(list);
    s.cpu = cpuPerRequest(list);
    ctx.cpuRows.push(cpuRow(measurements[i].name, s.cpu));
    return s;
  });
}

/** Runs `measure()` with a CPU meter on the services and this process; adds `cpu` to its result. */
async function metered(ctx, measure) {
  const pids = await ctx.pids();
  const meter = cpuMeter(pids, { authMain: pids.auth });
  const result = await measure();
  result.cpu = meter.end();
  return result;
}

function closed(ctx, name, op, connections) {
  const durationMs = ctx.options.durationMs;
  return { name, once: () => metered(ctx, () => closedLoop({ op, connections, durationMs })) };
}

/** Open-loop runs of one route at `rate`/s; appends a latency row. */
async function latency(ctx, name, op, rate) {
  const { options } = ctx;
  const runs = [];
  for (let r = 0; r < options.runs; r++) {
    const result = await openLoop({ op, rate, durationMs: options.durationMs });
    runs.push(result);
    progress(
      `  open loop ${r + 1}/${options.runs} ${name} @ ${rate}/s: p50 ${fmtMs(result.p50)}, p99 ${fmtMs(result.p99)}` +
        (result.errors ? `, ${result.errors} errors` : '') +
        (result.lagP99 > 10
          ? ` (sender lag p99 ${fmtMs(result.lagP99)}: generator saturated)`
          : ''),
    );
  }
  const s = summarize(runs);
  const maxOfRuns = Math.max(...runs.map((r) => r.max ?? 0));
  ctx.latencyRows.push([
    name,
    fmtRate(rate),
    fmtRate(s.rate),
    fmtMs(s.p50),
    fmtMs(s.p99),
    fmtMs(maxOfRuns),
    s.errors,
  ]);
  if (runs.some((r) => r.lagP99 > 10)) {
    ctx.notes.push(
      `${name}: the load generator itself fell behind schedule (lag p99 > 10 ms); its latencies include that.`,
    );
  }
  return s;
}

/** Open-loop rate: a fraction of the measured closed-loop rate, rounded to 2 significant digits. */
function openRate(options, closedRate) {
  const raw = Math.max(1, closedRate * options.openFraction);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 1);
  return Math.max(1, Math.round(raw / magnitude) * magnitude);
}

module.exports = { warmup, interleaved, metered, closed, latency, openRate };

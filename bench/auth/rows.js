// Cells and notes of the auth suite's throughput table: result, CPU ratio, spread, open-loop
// latency, failures.
'use strict';
const { fmtMs, fmtRate } = require('../lib/report.js');

function resultCell(s, ratio, target) {
  if (s.errors > 0) return 'ERRORS';
  return ratio >= target ? 'met' : 'MISSED';
}

/**
 * The ratio from CPU time instead of wall-clock rates: ceiling CPU per request / scenario CPU
 * per request (both counting only the processes this bench started). Much less sensitive to
 * other people's load than the rate ratio, but blind to contention and to Redis.
 */
function cpuRatio(ceiling, scenario) {
  return ceiling.cpu.ours && scenario.cpu.ours ? ceiling.cpu.ours / scenario.cpu.ours : null;
}

/** Fills the p50/p99 cell of the last throughput row from an open-loop summary. */
function setLatency(ctx, s) {
  const row = ctx.rows[ctx.rows.length - 1];
  row[row.length - 2] = `${fmtMs(s.p50)} / ${fmtMs(s.p99)}`;
}

function spread(s) {
  return `${fmtRate(s.rateMin)}–${fmtRate(s.rateMax)}`;
}

function errorNote(ctx, name, s) {
  if (s.errors === 0) return;
  const samples = new Map();
  for (const run of s.perRun)
    for (const [k, n] of run.errorSamples) samples.set(k, (samples.get(k) || 0) + n);
  ctx.notes.push(
    `${name}: ${s.errors} failed requests (${[...samples].map(([k, n]) => `${n}× ${k}`).join('; ')})`,
  );
}

module.exports = { resultCell, cpuRatio, setLatency, spread, errorNote };

// Statistics helpers: latency histograms (hdr-histogram-js, microseconds), percentiles, and the
// median of several runs.
'use strict';
const hdr = require('hdr-histogram-js');

/** A histogram of latencies in microseconds, 1 µs to 2 min, 3 significant digits. */
function newHistogram() {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 120_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

/** Records a duration given in milliseconds (performance.now() differences). */
function recordMs(histogram, ms) {
  histogram.recordValue(Math.min(120_000_000, Math.max(1, Math.round(ms * 1000))));
}

/** `{p50, p99, max}` in milliseconds, or nulls for an empty histogram. */
function percentiles(histogram) {
  if (histogram.totalCount === 0) return { p50: null, p99: null, max: null };
  return {
    p50: histogram.getValueAtPercentile(50) / 1000,
    p99: histogram.getValueAtPercentile(99) / 1000,
    max: histogram.maxValue / 1000,
  };
}

function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Summary of several runs of the same measurement: the median of each figure across runs, plus
 * the min and max of the rate (the spread tells how noisy the machine was).
 * @param {{rate: number, p50: number|null, p99: number|null, errors: number}[]} runs
 */
function summarize(runs) {
  const rates = runs.map((r) => r.rate);
  return {
    runs: runs.length,
    rate: median(rates),
    rateMin: Math.min(...rates),
    rateMax: Math.max(...rates),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + (r.errors || 0), 0),
    perRun: runs,
  };
}

module.exports = { newHistogram, recordMs, percentiles, median, summarize };

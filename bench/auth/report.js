// Prints the auth suite's results: throughput, open-loop latency and CPU-per-request tables,
// then the notes.
'use strict';
const { machineLine } = require('../lib/harness.js');
const { printTable } = require('../lib/report.js');

/** Writes the three tables and the notes to stdout (progress went to stderr). */
function printReport({
  started,
  machineBefore,
  extraEnv,
  options,
  rows,
  latencyRows,
  cpuRows,
  notes,
}) {
  const out = process.stdout;
  out.write(`\nAuth service through the gateway — ${started.toISOString().slice(0, 16)}Z\n`);
  out.write(`Machine at start: ${machineBefore}\nMachine at end:   ${machineLine()}\n`);
  if (extraEnv.length > 0) out.write(`Service variables added: ${extraEnv.join(' ')}\n`);
  out.write(
    `Figures: median of ${options.runs} run(s) of ${options.durationMs / 1000} s; ` +
      `throughput closed-loop, latency open-loop at ${Math.round(options.openFraction * 100)}% of it.\n\n`,
  );
  printTable(
    [
      'scenario',
      'req/s',
      'min–max',
      'ceiling',
      'ceiling/s',
      'ratio',
      'by CPU',
      'target',
      'p50 / p99 (open loop)',
      'result',
    ],
    rows,
  );
  out.write('\nLatency, open loop (from scheduled send time):\n');
  printTable(['route', 'offered/s', 'done/s', 'p50', 'p99', 'max', 'errors'], latencyRows);
  out.write(
    '\nCPU ms per request, closed loop (auth = loop + pool: its main thread and its other threads,\n' +
      'i.e. argon2 in the libuv pool, GC helpers; postgres = backends of the bench database; ours =\n' +
      "the sum; rest = Redis, NATS and other people's processes; cpu-bound/s = cores × 1000 / ours):\n",
  );
  printTable(
    [
      'measurement',
      'auth',
      'auth loop',
      'auth pool',
      'gateway',
      'postgres',
      'generator',
      'ours',
      'rest',
      'machine busy',
      'cpu-bound/s',
    ],
    cpuRows,
  );
  if (notes.length > 0) out.write(`\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
}

module.exports = { printReport };

// CPU milliseconds per successful request of the auth suite's measurements, and their table row.
'use strict';
const { availableParallelism } = require('node:os');
const { fmtPct, fmtRate } = require('../lib/report.js');
const { median } = require('../lib/stats.js');

/**
 * Median CPU ms per successful request over `runs`, per process group; `ours` = everything this
 * bench started (services, their PostgreSQL backends, the generator), not other people's work.
 */
function cpuPerRequest(runs) {
  const per = (key) =>
    median(runs.map((r) => (r.cpu && r.cpu[key] !== null && r.ok > 0 ? r.cpu[key] / r.ok : null)));
  const cpu = {};
  for (const key of ['auth', 'authMain', 'gateway', 'postgres', 'self', 'rest']) {
    cpu[key] = per(key);
  }
  cpu.ours = median(
    runs.map((r) =>
      r.cpu && r.ok > 0
        ? ['auth', 'gateway', 'postgres', 'self'].reduce((n, k) => n + (r.cpu[k] ?? 0), 0) / r.ok
        : null,
    ),
  );
  cpu.busyShare = median(runs.map((r) => r.cpu?.busyShare ?? null));
  return cpu;
}

function cpuRow(name, cpu) {
  const ms = (v) => (v === null ? '-' : v.toFixed(2));
  return [
    name,
    ms(cpu.auth),
    ms(cpu.authMain),
    cpu.auth !== null && cpu.authMain !== null ? ms(cpu.auth - cpu.authMain) : '-',
    ms(cpu.gateway),
    ms(cpu.postgres),
    ms(cpu.self),
    ms(cpu.ours),
    ms(cpu.rest),
    fmtPct(cpu.busyShare),
    cpu.ours ? fmtRate((availableParallelism() * 1000) / cpu.ours) : '-',
  ];
}

module.exports = { cpuPerRequest, cpuRow };

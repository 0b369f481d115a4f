// CPU accounting during a measurement (Linux /proc; elsewhere every figure is null): CPU time
// used by each started service, by this process (the load generator), and by the whole machine,
// so a result can say where the time went and how much other processes (PostgreSQL, Redis, NATS,
// other people's work) took.
'use strict';
const { readFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // keep the usual 100
}

/**
 * utime + stime of a process (all its threads), in ms; null if unreadable. `pid` may also be
 * `<pid>/task/<tid>`: one thread.
 */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the machine (all cores), in ms; null if unreadable. */
function machineCpuMs() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = v[3] + (v[4] || 0);
    return {
      busy: ((total - idle) * 1000) / ticksPerSecond,
      total: (total * 1000) / ticksPerSecond,
    };
  } catch {
    return null;
  }
}

/** CPU ms of a group of processes: per pid, so one that exits in between is left out. */
function groupCpuMs(pids) {
  return new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
}

/**
 * Takes a snapshot now; `.end()` returns CPU ms used since, per named process or group of
 * processes, by this process (`self`), by everything else (`rest`), and the machine's busy
 * share (0-1).
 * @param {Record<string, number | number[]>} pids e.g. {auth: 123, postgres: [456, 457]}
 * @param {Record<string, number>} mainThreads e.g. {authMain: 123}: the main (event loop)
 *   thread of a process listed in `pids`, reported on its own and not added to the sums
 */
function cpuMeter(pids, mainThreads = {}) {
  const groups = Object.entries(pids).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]);
  const threads = Object.entries(mainThreads).map(([k, pid]) => [k, `${pid}/task/${pid}`]);
  const threadStart = new Map(threads.map(([k, path]) => [k, processCpuMs(path)]));
  const start = {
    procs: new Map(groups.map(([k, list]) => [k, groupCpuMs(list)])),
    self: process.cpuUsage(),
    machine: machineCpuMs(),
  };
  return {
    end() {
      const used = {};
      let ours = 0;
      for (const [name, list] of groups) {
        const before = start.procs.get(name);
        let sum = null;
        for (const [pid, now] of groupCpuMs(list)) {
          const then = before.get(pid);
          if (now === null || then === null || then === undefined) continue;
          sum = (sum ?? 0) + (now - then);
        }
        used[name] = sum;
        ours += sum ?? 0;
      }
      for (const [name, path] of threads) {
        const now = processCpuMs(path);
        const then = threadStart.get(name);
        used[name] = now === null || then === null ? null : now - then;
      }
      const self = process.cpuUsage(start.self);
      used.self = (self.user + self.system) / 1000;
      ours += used.self;
      const machine = machineCpuMs();
      if (machine && start.machine) {
        const busy = machine.busy - start.machine.busy;
        used.rest = Math.max(0, busy - ours);
        used.busyShare = busy / (machine.total - start.machine.total);
      } else {
        used.rest = null;
        used.busyShare = null;
      }
      return used;
    },
  };
}

module.exports = { cpuMeter };

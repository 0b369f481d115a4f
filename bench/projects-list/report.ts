// Prints the projects-list results: data, throughput and CPU tables, queries, latency, plans
// and notes.
import { machineLine } from '../lib/harness.js';
import type { BenchOptions } from '../lib/options.js';
import { fmtMs, fmtPct, fmtRate, printTable } from '../lib/report.js';
import type { RunSummary } from '../lib/stats.js';
import type { Seeded } from '../support/projects-seed.js';
import { cpuRow, type CpuPerRequest } from './cpu.js';
import type { Scenario } from './scenarios.js';

export interface Row {
  name: string;
  scenario: Scenario;
  check: { count: number; bytes: number };
  throughput: RunSummary;
  ceiling: RunSummary;
  latency: RunSummary;
  cpu: CpuPerRequest;
  ceilingCpu: CpuPerRequest;
}

/** Writes every table of one invocation to stdout (progress went to stderr). */
export function printReport(report: {
  started: Date;
  machineBefore: string;
  options: BenchOptions;
  seeded: Seeded;
  rows: Row[];
  ceilingCpu: CpuPerRequest;
  latencyRows: (string | number)[][];
  plans: string[][];
  notes: string[];
}): void {
  const { started, machineBefore, options, seeded, rows, ceilingCpu, latencyRows, plans, notes } =
    report;
  const out = process.stdout;
  out.write(
    `\nGET /organizations/{id}/projects through the gateway — ${started.toISOString().slice(0, 16)}Z\n`,
  );
  out.write(`Machine at start: ${machineBefore}\nMachine at end:   ${machineLine()}\n`);
  out.write(
    `Data: organization ${seeded.organizationId} with ${seeded.projects} projects ` +
      `(${seeded.memberships} project memberships, ${seeded.keys} key pairs); ` +
      `${seeded.otherProjects} projects in ${seeded.otherOrganizations} other organizations.\n` +
      `MEMBER caller: explicit member of ${seeded.memberVisible} projects (${seeded.memberDenied} more denied). ` +
      `ADMIN caller: sees all ${seeded.projects}.\n`,
  );
  out.write(
    `Figures: median of ${options.runs} run(s) of ${options.durationMs / 1000} s; throughput closed loop ` +
      `(16 connections), each run next to a run of the ceiling; latency open loop at ` +
      `${Math.round(options.openFraction * 100)}% of the scenario's closed-loop rate.\n` +
      `Ceiling: GET /organizations/x/projects (gateway + Api-Key + JWT + revocation check, 400 from the id pipe, no SQL).\n\n`,
  );
  printTable(
    [
      'scenario',
      'caller',
      'rows',
      'body',
      'req/s',
      'min–max',
      'ceiling/s',
      'ratio',
      'by CPU',
      'p50 / p99 (open loop)',
    ],
    rows.map((r) => [
      r.name,
      r.scenario.caller.toUpperCase(),
      r.check.count,
      `${(r.check.bytes / 1024).toFixed(1)} KiB`,
      fmtRate(r.throughput.rate),
      `${fmtRate(r.throughput.rateMin)}–${fmtRate(r.throughput.rateMax)}`,
      fmtRate(r.ceiling.rate),
      fmtPct(r.throughput.rate / r.ceiling.rate),
      r.cpu.ours && r.ceilingCpu.ours ? fmtPct(r.ceilingCpu.ours / r.cpu.ours) : '-',
      `${fmtMs(r.latency.p50)} / ${fmtMs(r.latency.p99)}`,
    ]),
  );
  out.write(
    '\nCPU ms per request, closed loop (medians; postgres = backends of the bench database;\n' +
      "ours = the sum; rest = Redis, NATS and other people's processes; cpu-bound/s = cores × 1000 / ours):\n",
  );
  printTable(
    [
      'measurement',
      'org',
      'gateway',
      'postgres',
      'generator',
      'ours',
      'rest',
      'machine busy',
      'cpu-bound/s',
    ],
    [...rows.map((r) => cpuRow(r.name, r.cpu)), cpuRow('ceiling (no-op)', ceilingCpu)],
  );
  out.write('\nQueries:\n');
  for (const r of rows) out.write(`  ${r.name.padEnd(16)} ?${r.scenario.query}\n`);
  out.write('\nLatency, open loop (from scheduled send time):\n');
  printTable(['route', 'offered/s', 'done/s', 'p50', 'p99', 'max', 'errors'], latencyRows);
  out.write('\nEXPLAIN (ANALYZE, BUFFERS) of the list query (warm cache, custom plan):\n');
  for (const lines of plans) out.write(`${lines.join('\n')}\n`);
  if (notes.length) out.write(`\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
}

#!/usr/bin/env node
// Summary of a V8 `.cpuprofile` (e.g. `auth.cpuprofile` from `BENCH_PROFILE_DIR`, bench/README.md):
//
//   node bench/support/profile-top.js <file.cpuprofile> [--top N] [--from S] [--to S] [--timeline]
//
// Prints the top N (15) frames by self time and by inclusive time (a frame counted once per
// sample even when recursive), and self time per package, as % of the busy samples (everything
// but `(idle)`) and in ms. `--from`/`--to` keep only samples in that window (seconds since the
// profile started) to leave out start-up; `--timeline` prints busy ms per second to choose one;
// `--callers NAME` prints the call paths (`--depth`, 5, frames up) of the frames whose name starts with NAME.
'use strict';
const { readFileSync } = require('node:fs');
const { parseArgs } = require('node:util');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '15' },
    from: { type: 'string', default: '0' },
    to: { type: 'string', default: 'Infinity' },
    timeline: { type: 'boolean', default: false },
    callers: { type: 'string' },
    depth: { type: 'string', default: '5' },
  },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: profile-top.js <file.cpuprofile> [--top N] [--from S] [--to S]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(values.top);
const fromUs = Number(values.from) * 1e6;
const toUs = Number(values.to) * 1e6;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

function frameName(node) {
  const f = node.callFrame;
  const url = f.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/');
  const where = url ? ` ${url.replace(/^.*\/(apps|libs)\//, '$1/')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where}`;
}

function packageOf(node) {
  const url = node.callFrame.url;
  if (!url)
    return node.callFrame.functionName.startsWith('(') ? node.callFrame.functionName : '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const app = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return app ? `${app[1]}/${app[2]}` : url;
}

// Sample durations: timeDeltas[i] is the time before sample i; a sample lasts until the next.
const self = new Map();
const inclusive = new Map();
const packages = new Map();
const timeline = new Map();
const callers = new Map();
let busyUs = 0;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  const dt = profile.timeDeltas[i + 1] ?? 0;
  const rel = t - profile.startTime;
  const node = byId.get(profile.samples[i]);
  if (node.callFrame.functionName === '(idle)') continue;
  const second = Math.floor(rel / 1e6);
  timeline.set(second, (timeline.get(second) ?? 0) + dt);
  if (rel < fromUs || rel >= toUs) continue;
  busyUs += dt;
  const name = frameName(node);
  self.set(name, (self.get(name) ?? 0) + dt);
  if (values.callers && name.startsWith(values.callers)) {
    const path = [];
    for (
      let id = parent.get(node.id);
      id !== undefined && path.length < Number(values.depth);
      id = parent.get(id)
    ) {
      path.push(frameName(byId.get(id)));
    }
    const key = path.join(' < ');
    callers.set(key, (callers.get(key) ?? 0) + dt);
  }
  const pkg = packageOf(node);
  packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const n = frameName(byId.get(id));
    if (seen.has(n)) continue;
    seen.add(n);
    inclusive.set(n, (inclusive.get(n) ?? 0) + dt);
  }
}

function print(title, map, limit) {
  process.stdout.write(`\n${title}\n`);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, limit);
  for (const [name, us] of rows) {
    const pct = ((100 * us) / busyUs).toFixed(1).padStart(5);
    process.stdout.write(`${pct}% ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
  }
}

if (values.timeline) {
  process.stdout.write('busy ms per second of the profile:\n');
  for (const [s, us] of [...timeline].sort((a, b) => a[0] - b[0])) {
    process.stdout.write(`${String(s).padStart(4)} s ${(us / 1000).toFixed(0).padStart(5)}\n`);
  }
}
process.stdout.write(`busy samples in the window: ${(busyUs / 1000).toFixed(0)} ms\n`);
print(`Top ${top} frames by self time`, self, top);
print(`Top ${top} frames by inclusive time`, inclusive, top + 10);
print('Self time per package', packages, top);
if (values.callers) print(`Callers of ${values.callers}`, callers, top);

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { httpPool, openLoop } from './lib/load.js';
import { Platform, type PlatformApp } from './support/platform.js';
import {
  diffHeaps,
  heapTotal,
  snapshotNodeOptions,
  summarizeHeapSnapshot,
  takeHeapSnapshot,
  type HeapGroup,
} from './soak/heap-snapshots.js';
import { sampleMemory, type MemoryRow } from './soak/memory.js';
import { MixCounts, soakMix } from './soak/mix.js';
import {
  printGrowth,
  printHeapDiff,
  printMix,
  printSample,
  printSampleHeader,
} from './soak/report.js';
import { gatewayOf, seed } from './soak/world.js';

export const description =
  'memory over time: a mixed load through the gateway for --minutes, RSS and heap per process';

const APPS: readonly PlatformApp[] = ['gateway', 'auth', 'org', 'wallet', 'analytics'];

/**
 * Soak: is memory flat under a steady, realistic load (docs/operations.md § Memory over time)?
 * Starts the whole platform in services mode with `npm start`'s runner (as `modes` does), signs
 * up `--users` users (organization, project, analytics key pair, funded wallet), then sends a
 * mixed load through the gateway at `--rate` requests/s (open loop) for `--minutes`: token info
 * and refreshes, logins, organizations, projects, members, audit log, settings, invitations,
 * wallets and transfers, analytics batches and reads, and a steady trickle of new sign-ups
 * (bench/soak/mix.ts). Every `--interval` seconds it prints each app's RSS (/proc) and V8 heap
 * used (prom-client's `nodejs_heap_size_used_bytes`); at the end the growth of each after minute
 * `--baseline` (goal < 10 %), and the answers per action. V8 heap snapshots of `--snapshot`
 * apps (default org and analytics; `none` for none) are taken when the load starts and after
 * the last sample (Node's `--heapsnapshot-signal`, enabled only here) and compared by
 * constructor: the table lists what grew. A snapshot leaves the process's RSS higher by about
 * its size (the allocator keeps the memory), so judge RSS growth on a run with
 * `--snapshot none`; heap used is not affected. `--keep-snapshots DIR` keeps the files (open them
 * in Chrome DevTools' Memory tab). `--env NAME=VALUE` (repeatable) sets a variable of every app,
 * e.g. `ACCESS_TOKEN_TTL_SECONDS=120` to see token caches settle within a short run.
 *
 *   npm run bench -- soak [--minutes 30] [--rate 60] [--interval 30] [--users 20]
 *                         [--baseline 5] [--snapshot org,analytics] [--keep-snapshots DIR]
 *                         [--env NAME=VALUE …]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '30' },
      rate: { type: 'string', default: '60' },
      interval: { type: 'string', default: '30' },
      users: { type: 'string', default: '20' },
      baseline: { type: 'string', default: '5' },
      snapshot: { type: 'string', default: 'org,analytics' },
      'keep-snapshots': { type: 'string' },
      env: { type: 'string', multiple: true, default: [] },
    },
  });
  const seconds = Number(values.minutes) * 60;
  const rate = Number(values.rate);
  const interval = Number(values.interval);
  const baseline = Math.min(Number(values.baseline) * 60, seconds);
  const snapshotApps = values.snapshot
    .split(',')
    .filter((app) => app && app !== 'none') as PlatformApp[];
  const dir = values['keep-snapshots'] ?? mkdtempSync(join(tmpdir(), 'wp-soak-'));
  const extra = Object.fromEntries(
    values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const platform = await Platform.start('services', {
    env: {
      ...extra,
      NODE_OPTIONS: snapshotNodeOptions(dir),
      // The mix reads validation and logs in on purpose; the per-address and per-username
      // limits would answer 429 to a single generator address.
      VALIDATION_RATE_LIMIT: '0',
      LOGIN_RATE_LIMIT: '0',
    },
  });
  const pool = httpPool(platform.gateway, 64);
  try {
    const gw = gatewayOf(platform, pool);
    process.stderr.write(`  seeding ${values.users} users…\n`);
    const accounts = await seed(gw, Number(values.users));
    const counts = new MixCounts();
    const op = soakMix(gw, accounts, counts);
    process.stderr.write('  warm-up (60 s)…\n');
    await openLoop({ op, rate, durationMs: 60_000 });
    const snapshots = new Map<string, Map<PlatformApp, Map<string, HeapGroup>>>();
    const snapshot = async (label: string) => {
      const taken = new Map<PlatformApp, Map<string, HeapGroup>>();
      for (const app of snapshotApps) {
        process.stderr.write(`  heap snapshot of ${app} (${label})…\n`);
        taken.set(app, summarizeHeapSnapshot(await takeHeapSnapshot(platform, app, dir)));
      }
      snapshots.set(label, taken);
    };
    await snapshot('start');
    const rows: MemoryRow[] = [];
    printSampleHeader(APPS);
    const first = { at: 0, apps: await sampleMemory(platform, APPS) };
    rows.push(first);
    printSample(first, APPS, 0, 0);
    let elapsed = 0;
    const mixCounts = new MixCounts();
    const measured = soakMix(gw, accounts, mixCounts);
    while (elapsed < seconds) {
      const chunk = Math.min(interval, seconds - elapsed);
      const result = await openLoop({ op: measured, rate, durationMs: chunk * 1000 });
      elapsed += chunk;
      const row = { at: elapsed, apps: await sampleMemory(platform, APPS) };
      rows.push(row);
      printSample(row, APPS, result.rate, result.errors);
    }
    await snapshot('end');
    printGrowth(rows, APPS, baseline, snapshotApps);
    for (const app of snapshotApps) {
      const before = snapshots.get('start')?.get(app);
      const after = snapshots.get('end')?.get(app);
      if (!before || !after) continue;
      const totals = { before: heapTotal(before), after: heapTotal(after) };
      printHeapDiff(app, 'start → end', totals, diffHeaps(before, after, 20));
    }
    printMix(mixCounts, seconds);
    if (mixCounts.failed.size > 0) process.exitCode = 1;
  } finally {
    await pool.close();
    await platform.stop();
    if (!values['keep-snapshots']) rmSync(dir, { recursive: true, force: true });
  }
}

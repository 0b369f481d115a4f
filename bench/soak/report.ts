import type { PlatformApp } from '../support/platform.js';
import type { HeapGrowth } from './heap-snapshots.js';
import { growth, mb, type MemoryRow } from './memory.js';
import type { MixCounts } from './mix.js';

const print = (line = ''): void => void process.stdout.write(`${line}\n`);

/** Header of the sampling table (printed once, rows follow as they are taken). */
export function printSampleHeader(apps: readonly PlatformApp[]): void {
  print('Memory per process, MB: RSS / V8 heap used (sampled while the load runs)');
  print();
  print(`| min | ${apps.join(' | ')} | answered/s | failed |`);
  print(`| --: | ${apps.map(() => '--:').join(' | ')} | --: | --: |`);
}

export function printSample(
  row: MemoryRow,
  apps: readonly PlatformApp[],
  rate: number,
  failed: number,
): void {
  const cells = apps.map((app) => `${mb(row.apps[app]?.rss)} / ${mb(row.apps[app]?.heapUsed)}`);
  print(`| ${(row.at / 60).toFixed(1)} | ${cells.join(' | ')} | ${rate.toFixed(1)} | ${failed} |`);
}

/** Growth from the sample at `baselineSeconds` to the last one, against the < 10 % goal. */
export function printGrowth(
  rows: MemoryRow[],
  apps: readonly PlatformApp[],
  baselineSeconds: number,
  snapshotted: readonly PlatformApp[],
): void {
  print();
  print(`Growth after minute ${(baselineSeconds / 60).toFixed(0)} (goal: RSS < 10 %)`);
  if (snapshotted.length > 0) {
    print(
      `(${snapshotted.join(', ')}: RSS includes what the start heap snapshot left allocated; ` +
        'judge their RSS on a run with --snapshot none)',
    );
  }
  print();
  print(
    '| app | RSS then → end, MB | RSS growth | heap used then → end, MB | heap growth | result |',
  );
  print('| --- | --: | --: | --: | --: | --- |');
  for (const app of apps) {
    const rss = growth(rows, app, 'rss', baselineSeconds);
    const heap = growth(rows, app, 'heapUsed', baselineSeconds);
    const pct = (p: number | null) => (p === null ? '–' : `${p >= 0 ? '+' : ''}${p.toFixed(1)} %`);
    const result = rss.percent === null ? '–' : rss.percent < 10 ? 'met' : 'MISSED';
    print(
      `| ${app} | ${mb(rss.from)} → ${mb(rss.to)} | ${pct(rss.percent)} | ${mb(heap.from)} → ${mb(heap.to)} | ${pct(heap.percent)} | ${result} |`,
    );
  }
}

/** What grew in an app's heap between two snapshots (DevTools' comparison view, as text). */
export function printHeapDiff(
  app: PlatformApp,
  label: string,
  totals: { before: number; after: number },
  growths: HeapGrowth[],
): void {
  print();
  print(
    `${app}: heap snapshot ${label}: ${mb(totals.before)} → ${mb(totals.after)} MB of live objects`,
  );
  print();
  print('| constructor | objects added | bytes added | objects before |');
  print('| --- | --: | --: | --: |');
  for (const g of growths) {
    if (g.size <= 0 && g.count <= 0) continue;
    print(
      `| ${g.name.replace(/\|/g, '\\|').slice(0, 60)} | ${g.count} | ${g.size} | ${g.countBefore} |`,
    );
  }
}

/** Answers per action of the mix, and every failure reason with its count. */
export function printMix(counts: MixCounts, seconds: number): void {
  print();
  print(`Requests answered as expected, per action (${(seconds / 60).toFixed(1)} min)`);
  print();
  print('| action | answered | per s |');
  print('| --- | --: | --: |');
  for (const [name, n] of [...counts.ok].sort((a, b) => b[1] - a[1])) {
    print(`| ${name} | ${n} | ${(n / seconds).toFixed(2)} |`);
  }
  if (counts.failed.size > 0) {
    print();
    print('Failures:');
    for (const [reason, n] of counts.failed) print(`  ×${n} ${reason}`);
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform, PlatformApp } from '../support/platform.js';

/**
 * The signal that makes an app write a V8 heap snapshot. Only the soak bench enables it, by
 * starting the platform with `NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR`
 * (Node's own `v8.writeHeapSnapshot` on a signal; nothing in the apps listens to SIGUSR2).
 */
export const SNAPSHOT_SIGNAL = 'SIGUSR2';

export function snapshotNodeOptions(dir: string): string {
  return `--heapsnapshot-signal=${SNAPSHOT_SIGNAL} --diagnostic-dir=${dir}`;
}

/**
 * Asks `app` for a heap snapshot and waits until it is written: Node names it
 * `Heap.<date>.<time>.<pid>.<tid>.<seq>.heapsnapshot` and writes it on the main thread, so the
 * app answers `/health/live` again only once the file is complete.
 * @returns the file's path
 */
export async function takeHeapSnapshot(
  platform: Platform,
  app: PlatformApp,
  dir: string,
): Promise<string> {
  const pid = platform.pids()[app];
  if (!pid) throw new Error(`no process id for ${app}`);
  const before = new Set(readdirSync(dir));
  process.kill(pid, SNAPSHOT_SIGNAL);
  const deadline = Date.now() + 180_000;
  let file: string | undefined;
  while (!file) {
    if (Date.now() > deadline) throw new Error(`${app} wrote no heap snapshot within 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    file = readdirSync(dir).find(
      (f) => !before.has(f) && f.includes(`.${pid}.`) && f.endsWith('.heapsnapshot'),
    );
  }
  while (Date.now() < deadline) {
    const live = await fetch(`${platform.url(app)}/health/live`, {
      signal: AbortSignal.timeout(2_000),
    }).catch(() => undefined);
    if (live?.status === 200) return join(dir, file);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${app} did not answer after its heap snapshot`);
}

/** Objects of one constructor (or one internal kind, in brackets) in a heap snapshot. */
export interface HeapGroup {
  count: number;
  /** Bytes of the objects themselves (V8's self size). */
  size: number;
}

/**
 * Sums a `.heapsnapshot` (V8's JSON format: `snapshot.meta` describes the flat `nodes` array)
 * by constructor name, as DevTools' "Summary" view does: objects and closures by name, every
 * other node type (strings, arrays, compiled code, hidden…) as `(type)`.
 */
export function summarizeHeapSnapshot(path: string): Map<string, HeapGroup> {
  const size = statSync(path).size;
  if (size > 1_500_000_000) throw new Error(`${path}: ${size} bytes is too large to read`);
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  const { nodes, strings } = snapshot;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const name =
      type === 'object' || type === 'closure'
        ? type === 'closure'
          ? `${strings[nodes[i + nameAt]] || '(anonymous)'}()`
          : strings[nodes[i + nameAt]]
        : `(${type})`;
    const group = groups.get(name) ?? { count: 0, size: 0 };
    group.count++;
    group.size += nodes[i + sizeAt];
    groups.set(name, group);
  }
  return groups;
}

export interface HeapGrowth {
  name: string;
  count: number;
  size: number;
  countBefore: number;
  sizeBefore: number;
}

/** Groups that grew between two snapshots, largest growth in bytes first. */
export function diffHeaps(
  before: Map<string, HeapGroup>,
  after: Map<string, HeapGroup>,
  limit = 20,
): HeapGrowth[] {
  const out: HeapGrowth[] = [];
  for (const [name, end] of after) {
    const start = before.get(name) ?? { count: 0, size: 0 };
    out.push({
      name,
      count: end.count - start.count,
      size: end.size - start.size,
      countBefore: start.count,
      sizeBefore: start.size,
    });
  }
  return out.sort((a, b) => b.size - a.size).slice(0, limit);
}

/** Total self size of a summary, bytes. */
export function heapTotal(groups: Map<string, HeapGroup>): number {
  let total = 0;
  for (const g of groups.values()) total += g.size;
  return total;
}

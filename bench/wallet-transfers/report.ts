// Prints the wallet-transfers results (medians, ratios to the pgbench ceilings, ledger invariants)
// and saves the raw rows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { LedgerAuditReport } from '../../apps/wallet/src/modules/ledger/ledger-audit.js';
import { median } from '../lib/stats.js';
import { ROOT } from '../support/processes.js';

export interface Row {
  run: number;
  name: string;
  clients: number;
  rate: number;
  p50?: number;
  p99?: number;
  errors?: number;
  offered?: number;
  /** CPU ms (user + system) of the wallet / gateway process per transfer, closed loop. */
  walletCpu?: number;
  gatewayCpu?: number;
  /** CPU ms of the PostgreSQL server (all its processes) per transfer, closed loop. */
  postgresCpu?: number;
  /** Mean movements per ledger call during the closed loop (group commit, MoveBatcher). */
  batchMean?: number;
}

export function report(
  rows: Row[],
  audits: LedgerAuditReport[],
  clientCounts: number[],
  settings: Record<string, unknown>,
): void {
  const medianOf = (
    name: string,
    clients: number,
    field: 'rate' | 'p50' | 'p99' | 'walletCpu' | 'gatewayCpu' | 'postgresCpu',
  ) =>
    median(
      rows.filter((r) => r.name === name && r.clients === clients).map((r) => r[field] ?? NaN),
    ) ?? NaN;
  const lines = [
    '',
    `wallet transfers through the gateway; medians of ${String(settings['runs'])} runs of ${String(settings['seconds'])} s each;` +
      ` Node ${process.version} (every process: the services run on the bench's node)`,
    `(${String(settings['walletCount'])} wallets, wallet pool ${String(settings['pool'])}, pgbench scale ${String(settings['scale'])},` +
      ` ${cpus().length} shared cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end)`,
    '',
    'scenario                 clients  transfers/s   p50 ms   p99 ms  CPU ms/transfer wallet, gateway, PostgreSQL',
  ];
  const names = [
    'random wallets',
    'hot wallets',
    'organization wallets',
    'pgbench TPC-B',
    'pgbench hot 5-RT',
    'wallet_move SQL random',
    'wallet_move SQL hot',
  ];
  for (const name of names) {
    for (const clients of clientCounts) {
      const rate = medianOf(name, clients, 'rate');
      const http = name.endsWith('wallets');
      const p50 = http ? medianOf(name, clients, 'p50').toFixed(2) : '';
      const p99 = http ? medianOf(name, clients, 'p99').toFixed(2) : '';
      const cpu = http
        ? `${medianOf(name, clients, 'walletCpu').toFixed(2).padStart(10)}` +
          `${medianOf(name, clients, 'gatewayCpu').toFixed(2).padStart(9)}` +
          `${medianOf(name, clients, 'postgresCpu').toFixed(2).padStart(9)}`
        : '';
      lines.push(
        `${name.replace('hot wallets', 'hot wallet').padEnd(25)}${String(clients).padStart(7)}` +
          `${rate.toFixed(0).padStart(13)}${p50.padStart(9)}${p99.padStart(9)}${cpu}`,
      );
    }
  }
  lines.push('');
  if (settings['target'] !== 'gateway')
    lines.push(`(target: ${String(settings['target'])} directly)`);
  for (const clients of clientCounts) {
    const random =
      medianOf('random wallets', clients, 'rate') / medianOf('pgbench TPC-B', clients, 'rate');
    const hot =
      medianOf('hot wallets', clients, 'rate') / medianOf('pgbench hot 5-RT', clients, 'rate');
    const sqlRandom =
      medianOf('wallet_move SQL random', clients, 'rate') /
      medianOf('pgbench TPC-B', clients, 'rate');
    const sqlHot =
      medianOf('wallet_move SQL hot', clients, 'rate') /
      medianOf('pgbench hot 5-RT', clients, 'rate');
    const organization =
      medianOf('organization wallets', clients, 'rate') /
      medianOf('pgbench TPC-B', clients, 'rate');
    const checked =
      medianOf('organization wallets', clients, 'rate') /
      medianOf('random wallets', clients, 'rate');
    lines.push(
      `c${clients}: through the gateway: random / TPC-B = ${pct(random)} (target ≥ 50 %),` +
        ` hot / hot 5-RT = ${pct(hot)} (target ≥ 100 %);` +
        ` ledger function alone: ${pct(sqlRandom)}, ${pct(sqlHot)}`,
      `     organization wallets (permission freshness check) / TPC-B = ${pct(organization)}` +
        ` (target ≥ 50 %), / random = ${pct(checked)}`,
    );
  }
  const last = audits[audits.length - 1];
  lines.push(
    '',
    `ledger invariants after every run: ${audits.every((a) => a.ok) ? 'hold' : 'VIOLATED'}` +
      ` (sum per asset zero, no negative balance, balances = postings, holds = reservations,` +
      ` balance_after chains)`,
    `  ${last.counts.entries} journal entries, ${last.counts.postings} postings, ${last.counts.balances} balances;` +
      ` ${last.assets.map((a) => `${a.asset} sum ${a.sum}, issuance ${a.issuance}`).join('; ')}`,
  );
  for (const a of audits) for (const p of a.problems) lines.push(`  problem: ${p}`);
  console.log(lines.join('\n'));
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `wallet-transfers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ settings, rows, audits }, null, 2));
  console.log(`\nraw results: ${file}`);
}

/** A ratio as a percentage; `-` when a scenario was not run (`--scenarios`). */
function pct(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)} %` : '-';
}

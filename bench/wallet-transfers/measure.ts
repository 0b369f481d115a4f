// One service measurement of the wallet-transfers bench: warm-up, closed loop with CPU and ledger
// batch sizes, then the open loop.
import { loadavg } from 'node:os';
import { histogramTotals } from '@wp/testing';
import type { Pool } from 'undici';
import { type BenchRequest, closedLoop, httpOperation, openLoop } from '../lib/load.js';
import type { ServiceProcess } from '../support/processes.js';
import { cpuMs, postgresCpuMs } from './cpu.js';
import { fmtFailures, log } from './log.js';
import type { Row } from './report.js';

/** The wallet's histogram of movements per ledger call (group commit, MoveBatcher). */
const BATCH_SIZES = 'wallet_ledger_batch_size';

/**
 * Scenario `name` with `clients` connections: a warm-up, the closed loop (transfers/s, CPU per
 * transfer, movements per ledger call; profiled when `profiling`), the open loop at 70 % of its
 * rate (p50/p99 from the due time); logs and returns the row.
 */
export async function measureTransfers(options: {
  http: Pool;
  next: () => BenchRequest;
  name: string;
  run: number;
  clients: number;
  seconds: number;
  wallet: ServiceProcess;
  gateway: ServiceProcess;
  profiling: boolean;
}): Promise<Row> {
  const { http, next, name, run, clients, seconds, wallet, gateway, profiling } = options;
  const op = httpOperation(http, next);
  await closedLoop({ op, connections: clients, durationMs: Math.min(3, seconds) * 1000 }); // warm-up
  if (profiling) for (const service of [wallet, gateway]) service.signal('SIGWINCH');
  const batchesBefore = await histogramTotals(wallet.metricsUrl, BATCH_SIZES);
  const cpuBefore = [wallet.pid, gateway.pid].map(cpuMs);
  const pgCpuBefore = postgresCpuMs();
  const closed = await closedLoop({ op, connections: clients, durationMs: seconds * 1000 });
  const [walletCpu, gatewayCpu] = [wallet.pid, gateway.pid].map(
    (pid, i) => (cpuMs(pid) - cpuBefore[i]) / Math.max(1, closed.ok),
  );
  const postgresCpu = postgresCpuMs(pgCpuBefore) / Math.max(1, closed.ok);
  const batches = await histogramTotals(wallet.metricsUrl, BATCH_SIZES);
  const batchMean = (batches.sum - batchesBefore.sum) / (batches.count - batchesBefore.count);
  if (profiling) for (const service of [wallet, gateway]) service.signal('SIGWINCH');
  const open = await openLoop({
    op,
    rate: Math.max(1, closed.rate * 0.7),
    durationMs: seconds * 1000,
  });
  const row: Row = {
    run,
    name: `${name} wallets`,
    clients,
    rate: closed.rate,
    p50: open.p50 ?? NaN,
    p99: open.p99 ?? NaN,
    errors: closed.errors + open.errors,
    offered: open.target,
    walletCpu,
    gatewayCpu,
    postgresCpu,
    batchMean,
  };
  log(
    `run ${run} ${name.padEnd(6)} c${clients}: ${closed.rate.toFixed(0)} transfers/s` +
      ` (errors ${closed.errors}${fmtFailures(closed.errorSamples)}); at ${open.target.toFixed(0)}/s` +
      ` p50 ${(open.p50 ?? NaN).toFixed(2)} ms p99 ${(open.p99 ?? NaN).toFixed(2)} ms;` +
      ` CPU per transfer: wallet ${walletCpu.toFixed(2)} ms, gateway ${gatewayCpu.toFixed(2)} ms,` +
      ` PostgreSQL ${postgresCpu.toFixed(2)} ms;` +
      ` movements per ledger call ${batchMean.toFixed(1)}` +
      ` (load ${loadavg()[0].toFixed(1)})`,
  );
  return row;
}

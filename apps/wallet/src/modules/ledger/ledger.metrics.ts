import { Inject, Injectable } from '@nestjs/common';
import { METRICS_REGISTRY } from '@wp/observability';
import { Counter, type Registry } from 'prom-client';
import type { MoveCommand, MoveResult } from './ledger-moves.js';

/**
 * The ledger seen from Prometheus (docs/operations.md § Metrics):
 * - `wallet_ledger_entries_total{type}`: journal entries posted (each a balanced set of postings),
 *   idempotent replays not counted;
 * - `wallet_ledger_amount_total{type,asset}`: the amounts they moved, in the source asset's
 *   units (a float: for dashboards, never for accounting — the ledger holds the exact sums);
 * - `wallet_insufficient_funds_total{type}`: movements refused for insufficient funds.
 */
@Injectable()
export class LedgerMetrics {
  private readonly entries: Counter<'type'>;
  private readonly amounts: Counter<'type' | 'asset'>;
  private readonly insufficient: Counter<'type'>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.entries = new Counter({
      name: 'wallet_ledger_entries_total',
      help: 'Journal entries posted to the ledger, by type (idempotent replays excluded)',
      labelNames: ['type'],
      registers: [registry],
    });
    this.amounts = new Counter({
      name: 'wallet_ledger_amount_total',
      help: 'Amount moved by posted journal entries, by type and source asset (asset units)',
      labelNames: ['type', 'asset'],
      registers: [registry],
    });
    this.insufficient = new Counter({
      name: 'wallet_insufficient_funds_total',
      help: 'Movements refused because the source wallet did not hold enough',
      labelNames: ['type'],
      registers: [registry],
    });
  }

  posted(command: MoveCommand, result: MoveResult): void {
    if (result.replayed) return;
    this.entries.inc({ type: command.type });
    const amount = Number(result.amount.text);
    if (Number.isFinite(amount) && amount > 0) {
      this.amounts.inc({ type: command.type, asset: command.fromAsset }, amount);
    }
  }

  /** A refusal with SQLSTATE `sqlState` (WL001, or the balance CHECK 23514). */
  refused(command: MoveCommand, sqlState: string | undefined): void {
    if (sqlState === 'WL001' || sqlState === '23514') this.insufficient.inc({ type: command.type });
  }
}

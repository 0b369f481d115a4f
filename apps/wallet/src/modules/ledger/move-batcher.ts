import { Inject, Injectable } from '@nestjs/common';
import { METRICS_REGISTRY } from '@wp/observability';
import { Histogram, type Registry } from 'prom-client';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { KeyedLimiter } from './keyed-limiter.js';
import { ledgerErrorFromDatabase, type MovementPointers } from './ledger.errors.js';
import {
  BatchItemError,
  LedgerRepository,
  type MoveCommand,
  type MoveResult,
} from './ledger.repository.js';

/** Settles one pending movement with the outcome of its ledger call. */
type Settle = (pending: Pending) => void;

interface Pending {
  command: MoveCommand;
  pointers: MovementPointers;
  resolve: (result: MoveResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for movements into the same balance (docs/wallet.md § Hot wallets).
 *
 * Movements are queued per destination balance (wallet + asset) with one ledger call in flight
 * per destination: the first movement runs at once, alone; movements that arrive while it runs
 * wait and then go together — up to `WALLET_MOVE_BATCH_MAX` — in one transaction
 * (`wallet_move_batch`), so a hot wallet pays one commit for many transfers instead of one
 * each, while every movement still succeeds or fails on its own. Without contention nothing
 * changes: batches of one take the single-movement path. Debits (no destination) are never
 * batched. A call's movements are answered only once the next call of the lane is on its way
 * (`setImmediate`), so writing their HTTP answers overlaps PostgreSQL's work on the next batch
 * instead of delaying it. Every ledger call still goes through the {@link KeyedLimiter}.
 *
 * If a batch fails as a whole (a deadlock victim, a lost connection), nothing of it was
 * moved, and its movements are run again one by one.
 */
@Injectable()
export class MoveBatcher {
  private readonly lanes = new Map<string, Pending[]>();
  private readonly maxBatch: number;
  private readonly sizes: Histogram;

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly limiter: KeyedLimiter,
    @Inject(WALLET_CONFIG) config: WalletConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.maxBatch = config.WALLET_MOVE_BATCH_MAX;
    this.sizes =
      (registry.getSingleMetric('wallet_ledger_batch_size') as Histogram | undefined) ??
      new Histogram({
        name: 'wallet_ledger_batch_size',
        help: 'Movements per ledger call (group commit into one destination balance)',
        buckets: [1, 2, 4, 8, 16, 32, 64],
        registers: [registry],
      });
  }

  /**
   * Runs one movement, batched with others into the same destination when they queue up.
   * @throws LedgerError for the business outcomes (as {@link LedgerRepository.move})
   */
  move(command: MoveCommand, pointers: MovementPointers): Promise<MoveResult> {
    if (command.to === null || this.maxBatch <= 1) return this.single({ command, pointers });
    const key = balanceKey(command.to, command.toAsset);
    return new Promise<MoveResult>((resolve, reject) => {
      const lane = this.lanes.get(key);
      const pending = { command, pointers, resolve, reject };
      if (lane) {
        lane.push(pending);
        return;
      }
      this.lanes.set(key, [pending]);
      void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    const lane = this.lanes.get(key)!;
    while (lane.length > 0) {
      const batch = lane.splice(0, this.maxBatch);
      this.sizes.observe(batch.length);
      const outcomes = await this.execute(batch);
      // Answer after the next batch has been sent: the callers' continuations (serializing and
      // writing k answers) then run while PostgreSQL works on it, not in the lane's critical path.
      setImmediate(() => batch.forEach((pending, i) => outcomes[i](pending)));
    }
    this.lanes.delete(key);
  }

  /** Runs a batch and says how each movement settles, without settling it yet. */
  private async execute(batch: Pending[]): Promise<Settle[]> {
    if (batch.length === 1) return [await this.outcome(batch[0])];
    let results: (MoveResult | BatchItemError)[];
    try {
      results = await this.limiter.run(keysOf(batch.map((p) => p.command)), () =>
        this.ledger.moveBatch(batch.map((p) => p.command)),
      );
    } catch {
      // The batch's transaction rolled back as a whole: each movement on its own.
      return Promise.all(batch.map((pending) => this.outcome(pending)));
    }
    return batch.map((pending, i): Settle => {
      const result = results[i];
      if (result === undefined) return (p) => p.reject(new Error('ledger batch answered no row'));
      if (result instanceof BatchItemError) {
        const error = ledgerErrorFromDatabase(result, pending.pointers);
        return (p) => p.reject(error);
      }
      return (p) => p.resolve(result);
    });
  }

  private async outcome(pending: Pending): Promise<Settle> {
    try {
      const result = await this.single(pending);
      return (p) => p.resolve(result);
    } catch (error) {
      return (p) => p.reject(error);
    }
  }

  private single({ command, pointers }: Omit<Pending, 'resolve' | 'reject'>): Promise<MoveResult> {
    return this.limiter.run(keysOf([command]), () => this.ledger.move(command, pointers));
  }
}

function balanceKey(wallet: string, asset: string): string {
  return `${wallet}:${asset}`;
}

function keysOf(commands: MoveCommand[]): string[] {
  const keys: string[] = [];
  for (const c of commands) {
    if (c.from) keys.push(balanceKey(c.from, c.fromAsset));
    if (c.to) keys.push(balanceKey(c.to, c.toAsset));
  }
  return keys;
}

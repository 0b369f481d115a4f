import { Inject, Injectable } from '@nestjs/common';
import { isTransactionConflict } from '@wp/http';
import { METRICS_REGISTRY } from '@wp/observability';
import { Histogram, type Registry } from 'prom-client';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { KeyedLimiter } from './keyed-limiter.js';
import type { MovementPointers } from '../../common/ledger-error.js';
import { ledgerErrorFromDatabase } from './ledger.errors.js';
import { BatchItemError, LedgerRepository } from './ledger.repository.js';
import type { MoveCommand, MoveResult } from './ledger-moves.js';

/** Settles one pending movement with the outcome of its ledger call. */
type Settle = (pending: Pending) => void;

interface Pending {
  command: MoveCommand;
  pointers: MovementPointers;
  resolve: (result: MoveResult) => void;
  reject: (error: unknown) => void;
  /** The destination balance (wallet + asset). */
  key: string;
}

/**
 * Group commit for movements with a destination (docs/wallet.md § Group commit).
 *
 * At most `WALLET_LEDGER_CONCURRENCY` ledger calls are in flight, and at most one per
 * destination balance (wallet + asset). A movement that finds a call free and its destination
 * idle runs at once, alone (the single-movement path), so under light load nothing changes.
 * Movements that arrive while every call is busy, or while their destination's call is in
 * flight, wait; the next free call takes the oldest waiting movements whose destination is idle
 * — up to `WALLET_MOVE_BATCH_MAX`, into any destinations — and commits them together in one
 * transaction (`wallet_move_batch`), each succeeding or failing on its own. So many transfers
 * into one hot wallet share its row lock and one commit, and transfers between random wallets
 * share commits once the service is busy. Debits (no destination) are never batched.
 *
 * A call's movements are answered only once the next call is on its way (`setImmediate`), so
 * writing their HTTP answers overlaps PostgreSQL's work on it instead of delaying it. Every
 * ledger call still goes through the {@link KeyedLimiter}. A batch that is a deadlock or
 * serialization victim runs again whole (`preparedQuery`'s retry policy); if it fails as a whole
 * otherwise (a lost connection), nothing of it was moved, and its movements are run again one by
 * one. An item that was itself a deadlock victim inside the batch runs again alone.
 */
@Injectable()
export class MoveBatcher {
  /** Movements waiting for a ledger call, oldest first. */
  private readonly queue: Pending[] = [];
  /** Destination balances with a ledger call in flight. */
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly sizes: Histogram;

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly limiter: KeyedLimiter,
    @Inject(WALLET_CONFIG) config: WalletConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.maxBatch = config.WALLET_MOVE_BATCH_MAX;
    this.maxInFlight = config.WALLET_LEDGER_CONCURRENCY;
    this.sizes =
      (registry.getSingleMetric('wallet_ledger_batch_size') as Histogram | undefined) ??
      new Histogram({
        name: 'wallet_ledger_batch_size',
        help: 'Movements per ledger call (group commit)',
        buckets: [1, 2, 4, 8, 16, 32, 64],
        registers: [registry],
      });
  }

  /**
   * Runs one movement, batched with others when they queue up.
   * @throws LedgerError for the business outcomes (as {@link LedgerRepository.move})
   */
  move(command: MoveCommand, pointers: MovementPointers): Promise<MoveResult> {
    if (command.to === null || this.maxBatch <= 1) return this.single({ command, pointers });
    const key = balanceKey(command.to, command.toAsset);
    return new Promise<MoveResult>((resolve, reject) => {
      this.queue.push({ command, pointers, resolve, reject, key });
      this.pump();
    });
  }

  /** Starts ledger calls for what waits, while calls are free and destinations not busy. */
  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return;
      this.inFlight += 1;
      void this.run(batch);
    }
  }

  /** Takes up to `maxBatch` waiting movements, oldest first, whose destination is not busy. */
  private take(): Pending[] {
    const batch: Pending[] = [];
    let kept = 0;
    for (const pending of this.queue) {
      if (batch.length < this.maxBatch && !this.busy.has(pending.key)) batch.push(pending);
      else this.queue[kept++] = pending;
    }
    this.queue.length = kept;
    for (const pending of batch) this.busy.add(pending.key);
    return batch;
  }

  private async run(batch: Pending[]): Promise<void> {
    this.sizes.observe(batch.length);
    let outcomes: Settle[];
    try {
      outcomes = await this.execute(batch);
    } catch (error) {
      outcomes = batch.map(() => (pending: Pending) => pending.reject(error));
    } finally {
      // Whatever happened, free the call and its destinations and start the next one.
      for (const pending of batch) this.busy.delete(pending.key);
      this.inFlight -= 1;
      this.pump();
    }
    // Answer after the next batch has been sent: the callers' continuations (serializing and
    // writing k answers) then run while PostgreSQL works on it, not in the critical path.
    setImmediate(() => batch.forEach((pending, i) => outcomes[i](pending)));
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
    return Promise.all(
      batch.map(async (pending, i): Promise<Settle> => {
        const result = results[i];
        if (result === undefined) {
          return (p) => p.reject(new Error('ledger batch answered no row'));
        }
        // The item's subtransaction was a deadlock victim (it waited on another process's
        // movement with the same idempotency key while the batch held balance rows): it wrote
        // nothing, so it runs again alone, after the batch committed.
        if (result instanceof BatchItemError && isTransactionConflict(result)) {
          return this.outcome(pending);
        }
        if (result instanceof BatchItemError) {
          const error = ledgerErrorFromDatabase(result, pending.pointers);
          return (p) => p.reject(error);
        }
        return (p) => p.resolve(result);
      }),
    );
  }

  private async outcome(pending: Pending): Promise<Settle> {
    try {
      const result = await this.single(pending);
      return (p) => p.resolve(result);
    } catch (error) {
      return (p) => p.reject(error);
    }
  }

  private single({
    command,
    pointers,
  }: Pick<Pending, 'command' | 'pointers'>): Promise<MoveResult> {
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

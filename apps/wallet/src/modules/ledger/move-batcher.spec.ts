import { Registry } from 'prom-client';
import { Amount } from '../../common/amount.js';
import type { WalletConfig } from '../../config/wallet.config.js';
import { KeyedLimiter } from './keyed-limiter.js';
import { LedgerError } from '../../common/ledger-error.js';
import { BatchItemError, type LedgerRepository } from './ledger.repository.js';
import type { MoveCommand, MoveResult } from './ledger-moves.js';
import { MoveBatcher } from './move-batcher.js';

/** A ledger stand-in that records its calls and answers after a tick. */
class FakeLedger {
  readonly calls: string[][] = [];
  failBatch = false;

  async move(command: MoveCommand): Promise<MoveResult> {
    this.calls.push([command.referenceId!]);
    await tick();
    if (command.referenceId?.startsWith('poor'))
      throw Object.assign(new Error('x'), { code: 'WL001' });
    return result(command);
  }

  async moveBatch(commands: MoveCommand[]): Promise<(MoveResult | BatchItemError)[]> {
    this.calls.push(commands.map((c) => c.referenceId!));
    await tick();
    if (this.failBatch) throw Object.assign(new Error('deadlock'), { code: '40P01' });
    return commands.map((c) =>
      c.referenceId?.startsWith('poor')
        ? new BatchItemError('WL001', 'insufficient funds')
        : c.referenceId?.startsWith('victim')
          ? new BatchItemError('40P01', 'deadlock detected')
          : result(c),
    );
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const result = (c: MoveCommand): MoveResult => ({
  entryId: `entry-${c.referenceId}`,
  replayed: false,
  createdAt: new Date(),
  amount: c.amount,
  toAmount: c.amount,
  rate: null,
  fromBalance: null,
  toBalance: null,
});
const command = (ref: string, to: string | null = 'hot'): MoveCommand => ({
  type: 'transfer',
  from: `from-${ref}`,
  fromAsset: 'CREDITS',
  amount: Amount.fromNumeric('1'),
  to,
  toAsset: 'CREDITS',
  description: '',
  metadata: {},
  referenceId: ref,
  initiatedBy: null,
  idempotency: null,
});

describe('MoveBatcher', () => {
  let ledger: FakeLedger;
  let batcher: MoveBatcher;
  const make = (max: number, concurrency = 8) =>
    new MoveBatcher(
      ledger as unknown as LedgerRepository,
      new KeyedLimiter(3),
      { WALLET_MOVE_BATCH_MAX: max, WALLET_LEDGER_CONCURRENCY: concurrency } as WalletConfig,
      new Registry(),
    );
  beforeEach(() => {
    ledger = new FakeLedger();
    batcher = make(4);
  });
  const pointers = { amount: '/transaction/amount' };

  it('runs the first movement alone and batches those that queue behind it, up to the maximum', async () => {
    const refs = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const results = await Promise.all(refs.map((r) => batcher.move(command(r), pointers)));
    expect(results.map((r) => r.entryId)).toEqual(refs.map((r) => `entry-${r}`));
    expect(ledger.calls).toEqual([['a'], ['b', 'c', 'd', 'e'], ['f', 'g']]);
  });

  it('sends the next batch before answering the movements of the one that returned', async () => {
    batcher = make(2);
    const order: string[] = [];
    const record = ledger.moveBatch.bind(ledger);
    ledger.moveBatch = (commands) => {
      order.push(`sent ${commands.map((c) => c.referenceId).join(',')}`);
      return record(commands);
    };
    await Promise.all(
      ['f', 'g', 'h', 'i', 'j'].map((r) =>
        batcher.move(command(r), pointers).then(() => order.push(`answered ${r}`)),
      ),
    );
    // f alone, then g+h, then i+j: each call is on its way before the one before is answered.
    expect(order).toEqual([
      'sent g,h',
      'answered f',
      'sent i,j',
      'answered g',
      'answered h',
      'answered i',
      'answered j',
    ]);
  });

  it('gives each movement of a batch its own outcome', async () => {
    const outcomes = await Promise.allSettled(
      ['a', 'poor-b', 'c'].map((r) => batcher.move(command(r), pointers)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(ledger.calls).toEqual([['a'], ['poor-b', 'c']]);
    const rejected = outcomes[1] as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(LedgerError);
    expect((rejected.reason as LedgerError).code).toBe('INSUFFICIENT_FUNDS');
  });

  it('runs a movement that was a deadlock victim inside the batch again, alone', async () => {
    const results = await Promise.all(
      ['a', 'b', 'victim-c', 'd'].map((r) => batcher.move(command(r), pointers)),
    );
    expect(results.map((r) => r.entryId)).toEqual([
      'entry-a',
      'entry-b',
      'entry-victim-c',
      'entry-d',
    ]);
    expect(ledger.calls).toEqual([['a'], ['b', 'victim-c', 'd'], ['victim-c']]);
  });

  it('runs the movements one by one when a batch fails as a whole', async () => {
    ledger.failBatch = true;
    const results = await Promise.all(
      ['a', 'b', 'c'].map((r) => batcher.move(command(r), pointers)),
    );
    expect(results).toHaveLength(3);
    expect(ledger.calls).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
  });

  it('never batches debits (no destination), nor other destinations while calls are free', async () => {
    await Promise.all([
      batcher.move(command('a', null), pointers),
      batcher.move(command('b', null), pointers),
      batcher.move(command('c', 'x'), pointers),
      batcher.move(command('d', 'y'), pointers),
    ]);
    expect(ledger.calls.every((call) => call.length === 1)).toBe(true);
  });

  it('commits movements into any destinations together once every call is busy', async () => {
    batcher = make(4, 1);
    await Promise.all([
      batcher.move(command('a', 'x'), pointers),
      batcher.move(command('b', 'y'), pointers),
      batcher.move(command('c', 'z'), pointers),
      batcher.move(command('d', 'x'), pointers),
    ]);
    expect(ledger.calls).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('keeps a busy destination for its own next call even when another call is free', async () => {
    batcher = make(4, 2);
    await Promise.all([
      batcher.move(command('a', 'hot'), pointers),
      batcher.move(command('b', 'hot'), pointers),
      batcher.move(command('c', 'x'), pointers),
      batcher.move(command('d', 'hot'), pointers),
    ]);
    // a and c at once, each alone; b and d wait for a's call to return, then go together.
    expect(ledger.calls).toEqual([['a'], ['c'], ['b', 'd']]);
  });

  it('does not batch when the maximum is 1', async () => {
    batcher = make(1);
    await Promise.all(['a', 'b', 'c'].map((r) => batcher.move(command(r), pointers)));
    expect(ledger.calls).toEqual([['a'], ['b'], ['c']]);
  });
});

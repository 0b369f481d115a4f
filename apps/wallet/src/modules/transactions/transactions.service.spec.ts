import type { Principal } from '@wp/security';
import { Amount } from '../../common/amount.js';
import type { AssetsService } from '../assets/assets.service.js';
import { LedgerError } from '../../common/ledger-error.js';
import type { MoveCommand, MoveResult } from '../ledger/ledger-moves.js';
import type { LedgerRepository } from '../ledger/ledger.repository.js';
import type { MoveBatcher } from '../ledger/move-batcher.js';
import type { WalletAccess } from '../wallets/wallet-access.js';
import { InsufficientPermissionsError } from '../wallets/wallets.errors.js';
import type { CreditRecorder } from './credit-recorder.js';
import type { TransactionDto } from './dto/transact.dto.js';
import { TransactionsService } from './transactions.service.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const ADA = { id: 'u-ada' } as Principal;

/**
 * TransactionsService with stand-ins of the wallet access rules (the caller controls `A` only),
 * the asset catalogue (USD, EUR) and the ledger (records each command, answers a balance): what
 * is under test is the service's own rule — which movement a request is, which it refuses
 * before the ledger sees it, and what it hands the ledger.
 */
function setup() {
  const moves: MoveCommand[] = [];
  const access = {
    requireToMove: (principal: Principal, address: string) =>
      address === A
        ? Promise.resolve({ addressHash: A })
        : Promise.reject(new InsufficientPermissionsError('You do not control this wallet.')),
  };
  const assets = {
    requireKnown: (code: string, source?: { pointer: string }) => {
      if (!['USD', 'EUR'].includes(code)) {
        throw new LedgerError('UNKNOWN_ASSET', `The asset ${code} is not offered here.`, source);
      }
    },
  };
  const batcher = {
    move: (command: MoveCommand): Promise<MoveResult> => {
      moves.push(command);
      return Promise.resolve({
        entryId: `e${moves.length}`,
        replayed: false,
        createdAt: new Date('2026-11-28T12:00:00Z'),
        amount: command.amount,
        toAmount: command.amount,
        rate: null,
        fromBalance: Amount.fromNumber(0),
        toBalance: Amount.fromNumber(0),
      });
    },
  };
  const service = new TransactionsService(
    access as unknown as WalletAccess,
    {} as LedgerRepository,
    assets as unknown as AssetsService,
    batcher as unknown as MoveBatcher,
    {} as CreditRecorder,
  );
  const transact = (t: Partial<TransactionDto>, key?: string) =>
    service.transact(
      ADA,
      { from_wallet: A, to_wallet: B, from_asset: 'USD', to_asset: 'USD', amount: 1, ...t },
      key,
    );
  return { moves, transact };
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'moved',
    (error: { code?: string }) => error.code,
  );

describe('TransactionsService.transact', () => {
  it('is a transfer between wallets in one asset, a conversion inside one wallet', async () => {
    const { moves, transact } = setup();
    await transact({});
    await transact({ to_wallet: A, to_asset: 'EUR' });
    expect(moves.map((m) => [m.type, m.from, m.to, m.fromAsset, m.toAsset])).toEqual([
      ['transfer', A, B, 'USD', 'USD'],
      ['conversion', A, A, 'USD', 'EUR'],
    ]);
  });

  it('refuses, before the ledger, what moves nothing or mixes a transfer with a conversion', async () => {
    const { moves, transact } = setup();
    expect(await code(transact({ to_wallet: A }))).toBe('NOTHING_TO_MOVE');
    expect(await code(transact({ to_asset: 'EUR' }))).toBe('CROSS_ASSET_TRANSFER_NOT_SUPPORTED');
    expect(await code(transact({ to_wallet: A, to_asset: 'XAU' }))).toBe('UNKNOWN_ASSET');
    expect(await code(transact({ from_wallet: B, to_wallet: A }))).toBe('INSUFFICIENT_PERMISSIONS');
    expect(moves).toEqual([]);
  });

  it('hands the ledger the exact decimal of the amount sent', async () => {
    const { moves, transact } = setup();
    await transact({ amount: 0.1 });
    await transact({ amount: 12345678.12345678 });
    await transact({ amount: 1e-8 });
    expect(moves.map((m) => m.amount.text)).toEqual(['0.1', '12345678.12345678', '0.00000001']);
  });

  it('makes an Idempotency-Key a per-caller key whose fingerprint is the request', async () => {
    const { moves, transact } = setup();
    await transact({ amount: 5 }, 'k1');
    await transact({ amount: 5 }, 'k1');
    await transact({ amount: 6 }, 'k1');
    await transact({ amount: 5 });
    const [first, same, other, none] = moves.map((m) => m.idempotency);
    expect(first).toMatchObject({ scope: 'transact:u-ada', key: 'k1' });
    expect(same?.fingerprint).toBe(first?.fingerprint);
    expect(other?.fingerprint).not.toBe(first?.fingerprint);
    expect(none).toBeNull();
  });
});

import type { Amount } from '../../common/amount.js';
import type { JournalEntryType } from '../ledger/journal-entry.entity.js';
import type { MoveResult } from '../ledger/ledger-moves.js';
import type { HistoryLine } from '../ledger/ledger.repository.js';

/**
 * A movement as `transact`, `debits` and `credits` answer it (docs/wallet.md § Records): the
 * journal entry from the caller's side. `balance_after` is the ledger balance (available +
 * held) of the wallet the caller acted on: the source in `from_asset`, or for a credit the
 * credited wallet. `to_balance_after` is set for conversions only (same wallet, `to_asset`);
 * a recipient's balance is never shown to the sender.
 */
export interface MovementRecord {
  id: string;
  type: JournalEntryType;
  status: 'completed';
  from_wallet: string | null;
  to_wallet: string | null;
  from_asset: string;
  to_asset: string;
  amount: Amount;
  to_amount: Amount;
  rate: Amount | null;
  description: string;
  metadata: Record<string, unknown>;
  reference_id: string | null;
  balance_after: Amount | null;
  to_balance_after: Amount | null;
  created_at: string;
}

export interface MovementRequest {
  type: JournalEntryType;
  from: string | null;
  to: string | null;
  fromAsset: string;
  toAsset: string;
  description: string;
  metadata: Record<string, unknown>;
  referenceId: string | null;
}

export function toMovementRecord(request: MovementRequest, result: MoveResult): MovementRecord {
  return {
    id: result.entryId,
    type: request.type,
    status: 'completed',
    from_wallet: request.from,
    to_wallet: request.to,
    from_asset: request.fromAsset,
    to_asset: request.toAsset,
    amount: result.amount,
    to_amount: result.toAmount,
    rate: result.rate,
    description: request.description,
    metadata: request.metadata,
    reference_id: request.referenceId,
    balance_after: request.type === 'credit' ? result.toBalance : result.fromBalance,
    to_balance_after: request.type === 'conversion' ? result.toBalance : null,
    created_at: result.createdAt.toISOString(),
  };
}

/**
 * A line of `GET /wallets/{addressHash}/transactions`
 * (docs/architecture.md § Decisions where the contract is silent "Transaction records"): one
 * posting of the wallet. `id` is the posting, `transaction_id` the movement (a conversion shows two
 * lines with the same `transaction_id`); `amount` is positive and `direction` says `in` or `out`;
 * `counterparty_wallet` is null when the other side is the issuance account (credits, debits,
 * conversions); `balance_after` is the wallet's ledger balance in `asset` right after this line.
 */
export interface TransactionRecord {
  id: string;
  transaction_id: string;
  type: JournalEntryType;
  amount: Amount;
  asset: string;
  direction: 'in' | 'out';
  counterparty_wallet: string | null;
  description: string;
  metadata: Record<string, unknown>;
  reference_id: string | null;
  transfer_id: string | null;
  balance_after: Amount | null;
  created_at: string;
}

export function toTransactionRecord(line: HistoryLine): TransactionRecord {
  return {
    id: line.postingId,
    transaction_id: line.entryId,
    type: line.type,
    amount: line.amount.abs(),
    asset: line.asset,
    direction: line.amount.isNegative() ? 'out' : 'in',
    counterparty_wallet: line.counterparty,
    description: line.description,
    metadata: line.metadata,
    reference_id: line.referenceId,
    transfer_id: line.transferRequestId,
    balance_after: line.balanceAfter,
    created_at: line.createdAt.toISOString(),
  };
}

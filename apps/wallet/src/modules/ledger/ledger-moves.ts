import type { Amount } from '../../common/amount.js';
import type { JournalEntryType } from './journal-entry.entity.js';

/** One money movement as the ledger function takes it (`ledger/sql/wallet_move.sql`). */
export interface MoveCommand {
  type: JournalEntryType;
  /** Source wallet; null: the issuance account pays (credit). */
  from: string | null;
  fromAsset: string;
  amount: Amount;
  /** Destination wallet; null: the issuance account receives (debit). */
  to: string | null;
  toAsset: string;
  description: string;
  metadata: Record<string, unknown>;
  referenceId: string | null;
  initiatedBy: string | null;
  /** Whether `initiatedBy` is a user or a Sentinel Pass agent (default user). */
  actorType?: 'user' | 'agent';
  idempotency: { scope: string; key: string; fingerprint: string } | null;
  /** Take the amount from the source's held balance (accepting a transfer request). */
  sourceHeld?: boolean;
  transferRequestId?: string | null;
}

/** What a movement did, or, for an idempotent retry, what the original did. */
export interface MoveResult {
  entryId: string;
  replayed: boolean;
  createdAt: Date;
  amount: Amount;
  toAmount: Amount;
  rate: Amount | null;
  /** The source wallet's ledger balance in `fromAsset` after the movement (null: issuance). */
  fromBalance: Amount | null;
  /** The destination wallet's ledger balance in `toAsset` after the movement. */
  toBalance: Amount | null;
}

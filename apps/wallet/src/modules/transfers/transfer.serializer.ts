import { Amount } from '../../common/amount.js';
import type {
  TransferFailureReason,
  TransferRequest,
  TransferStatus,
} from './transfer-request.entity.js';

/**
 * The transfer record (docs/architecture.md § Decisions where the contract is silent;
 * docs/wallet.md § Transfer requests), inside `transfer` for one and in `data` for lists.
 * `expires_at` is the deadline of the pending step (null once completed or rejected; when it
 * expired for `expired`); `attempts_remaining` counts the wrong codes still allowed in the pending
 * step; `transaction_id` is the journal entry of a completed transfer. Codes never appear.
 */
export interface TransferRecord {
  id: string;
  from_wallet: string;
  to_wallet: string;
  amount: Amount;
  asset: string;
  description: string;
  status: TransferStatus;
  failure_reason: TransferFailureReason | null;
  expires_at: string | null;
  attempts_remaining: number | null;
  transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

export function toTransferRecord(transfer: TransferRequest, maxAttempts: number): TransferRecord {
  const pending =
    transfer.status === 'pending_sender_verification' ||
    transfer.status === 'pending_recipient_acceptance';
  return {
    id: transfer.id,
    from_wallet: transfer.fromWallet,
    to_wallet: transfer.toWallet,
    amount: Amount.fromNumeric(transfer.amount),
    asset: transfer.asset,
    description: transfer.description,
    status: transfer.status,
    failure_reason: transfer.failureReason,
    expires_at:
      pending || transfer.status === 'expired' ? transfer.codeExpiresAt.toISOString() : null,
    attempts_remaining: pending ? Math.max(0, maxAttempts - transfer.attempts) : null,
    transaction_id: transfer.journalEntryId,
    created_at: transfer.createdAt.toISOString(),
    updated_at: transfer.updatedAt.toISOString(),
  };
}

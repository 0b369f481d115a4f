import { DomainError, type ErrorSource } from '@wp/http';

/** Error codes of money movements (docs/wallet.md § Error codes). */
export type LedgerErrorCode =
  | 'INSUFFICIENT_FUNDS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RECIPIENT_NOT_FOUND'
  | 'WALLET_CLOSED'
  | 'CONVERSION_NOT_SUPPORTED'
  | 'AMOUNT_TOO_SMALL'
  | 'UNKNOWN_ASSET'
  | 'CROSS_ASSET_TRANSFER_NOT_SUPPORTED'
  | 'NOTHING_TO_MOVE';

/** 422 and 409 answers of the ledger; `code` is one of {@link LedgerErrorCode}. */
export class LedgerError extends DomainError {
  constructor(code: LedgerErrorCode, detail: string, source?: ErrorSource) {
    const [category, title] = describe(code);
    super(category, code, title, { detail, source });
  }
}

function describe(code: LedgerErrorCode): ['rule' | 'conflict', string] {
  switch (code) {
    case 'INSUFFICIENT_FUNDS':
      return ['rule', 'Insufficient funds'];
    case 'IDEMPOTENCY_KEY_REUSED':
      return ['conflict', 'Idempotency key reused'];
    case 'RECIPIENT_NOT_FOUND':
      return ['rule', 'Recipient wallet not found'];
    case 'WALLET_CLOSED':
      return ['rule', 'Wallet closed'];
    case 'CONVERSION_NOT_SUPPORTED':
      return ['rule', 'Conversion not supported'];
    case 'AMOUNT_TOO_SMALL':
      return ['rule', 'Amount too small'];
    case 'UNKNOWN_ASSET':
      return ['rule', 'Unknown asset'];
    case 'CROSS_ASSET_TRANSFER_NOT_SUPPORTED':
      return ['rule', 'Cross-asset transfer not supported'];
    case 'NOTHING_TO_MOVE':
      return ['rule', 'Nothing to move'];
  }
}

/** Where in the request body an error of a movement points. */
export interface MovementPointers {
  from?: string;
  to?: string;
  amount?: string;
  reference?: string;
}

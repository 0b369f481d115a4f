import type { ErrorSource } from '@wp/http';
import { LedgerError, type MovementPointers } from '../../common/ledger-error.js';

/** SQLSTATEs of business outcomes (answered as 4xx, not logged as failed queries). */
export const LEDGER_OUTCOME_CODES = ['WL001', 'WL002', 'WL003', 'WL004', 'WL005', 'WL006', 'WL009'];

/**
 * The SQLSTATE codes the ledger functions raise (`ledger/sql/*.sql`) as domain errors;
 * anything else is returned as is (a server error). CHECK violations on `balance` (the
 * last line of defence, never expected) are reported as insufficient funds.
 */
export function ledgerErrorFromDatabase(error: unknown, at: MovementPointers): unknown {
  const code = sqlState(error);
  if (code === undefined) return error;
  switch (code) {
    case 'WL001':
    case '23514':
      if (code === '23514' && !/balance_/.test(constraintOf(error))) return error;
      return new LedgerError(
        'INSUFFICIENT_FUNDS',
        'The source wallet does not hold enough of the asset; nothing was moved.',
        pointer(at.amount),
      );
    case 'WL002':
      return new LedgerError(
        'IDEMPOTENCY_KEY_REUSED',
        'This idempotency key was already used with a different request.',
        at.reference?.startsWith('/') ? pointer(at.reference) : { header: 'Idempotency-Key' },
      );
    case 'WL003':
      return new LedgerError('RECIPIENT_NOT_FOUND', 'No wallet has this address.', pointer(at.to));
    case 'WL004':
      return new LedgerError('WALLET_CLOSED', 'The recipient wallet is closed.', pointer(at.to));
    case 'WL009':
      return new LedgerError(
        'WALLET_CLOSED',
        'This wallet is closed: its organization, project or agent was deleted.',
        pointer(at.from),
      );
    case 'WL005':
      return new LedgerError(
        'CONVERSION_NOT_SUPPORTED',
        'No conversion rate is configured for this pair of assets.',
      );
    case 'WL006':
      return new LedgerError(
        'AMOUNT_TOO_SMALL',
        'The converted amount rounds to zero at 8 decimals.',
        pointer(at.amount),
      );
    default:
      return error;
  }
}

function pointer(path: string | undefined): ErrorSource | undefined {
  return path === undefined ? undefined : { pointer: path };
}

/** The SQLSTATE of a pg / TypeORM error, if any. */
export function sqlState(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

function constraintOf(error: unknown): string {
  const e = error as { constraint?: unknown; driverError?: { constraint?: unknown } } | null;
  const c = e?.driverError?.constraint ?? e?.constraint;
  return typeof c === 'string' ? c : '';
}

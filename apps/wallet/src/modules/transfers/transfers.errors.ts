import { DomainError } from '@wp/http';
import type { TransferStatus } from './transfer-request.entity.js';

export type TransferErrorCode =
  | 'TRANSFER_NOT_FOUND'
  | 'TRANSFER_NOT_PENDING'
  | 'INVALID_VERIFICATION_CODE'
  | 'VERIFICATION_LOCKED';

/** 404: no transfer request with this id that the caller may see. */
export class TransferNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'TRANSFER_NOT_FOUND' satisfies TransferErrorCode, 'Transfer not found', {
      detail: 'No transfer request with this id is visible to you.',
    });
  }
}

/** 409: the request is not in the state this step needs (e.g. accepted twice, or expired). */
export class TransferNotPendingError extends DomainError {
  constructor(status: TransferStatus, expected: TransferStatus) {
    super('conflict', 'TRANSFER_NOT_PENDING' satisfies TransferErrorCode, 'Transfer not pending', {
      detail: `The transfer request is ${status}; this step needs ${expected}. Nothing was moved.`,
      meta: { status },
    });
  }
}

/** 422: wrong code; `meta.attempts_remaining` says how many tries are left. */
export class InvalidVerificationCodeError extends DomainError {
  constructor(attemptsRemaining: number) {
    super(
      'rule',
      'INVALID_VERIFICATION_CODE' satisfies TransferErrorCode,
      'Invalid verification code',
      {
        detail: 'The verification code is wrong.',
        source: { pointer: '/verification_code' },
        meta: { attempts_remaining: attemptsRemaining },
      },
    );
  }
}

/** 422: the last allowed wrong code was entered; the request is void (status `rejected`). */
export class VerificationLockedError extends DomainError {
  constructor() {
    super('rule', 'VERIFICATION_LOCKED' satisfies TransferErrorCode, 'Verification locked', {
      detail: 'Too many wrong codes: the transfer request is void and nothing moves.',
      source: { pointer: '/verification_code' },
      meta: { attempts_remaining: 0 },
    });
  }
}

import { DomainError } from '@wp/http';
import type { ActivationChannel } from './activation-code.entity.js';

export type ActivationErrorCode =
  'ALREADY_ACTIVE' | 'ACTIVATION_METHOD_MISMATCH' | 'INVALID_CODE' | 'CODE_EXPIRED' | 'CODE_LOCKED';

/** 422: the account is active already (or disabled): there is nothing to activate. */
export class AlreadyActiveError extends DomainError {
  constructor() {
    super('rule', 'ALREADY_ACTIVE', 'Account already active', {
      detail: 'This account needs no activation. Sign in instead.',
    });
  }
}

/** 422: `/activate/email` for a phone account or the reverse; `meta.method` is the right one. */
export class ActivationMethodMismatchError extends DomainError {
  constructor(expected: ActivationChannel) {
    super('rule', 'ACTIVATION_METHOD_MISMATCH', 'Wrong activation method', {
      detail: `This account is activated by ${expected}: use /activate/${expected}.`,
      meta: { method: expected },
    });
  }
}

/** 422: wrong code; `meta.attemptsRemaining` before the code locks. */
export class InvalidCodeError extends DomainError {
  constructor(attemptsRemaining: number) {
    super('rule', 'INVALID_CODE', 'Invalid code', {
      detail:
        attemptsRemaining > 0
          ? `The code is not correct. ${attemptsRemaining} attempt(s) left.`
          : 'The code is not correct, and it is now locked. Request a new code.',
      source: { pointer: '/code' },
      meta: { attemptsRemaining },
    });
  }
}

/** 422: no code is pending, or it expired. */
export class CodeExpiredError extends DomainError {
  constructor() {
    super('rule', 'CODE_EXPIRED', 'Code expired', {
      detail: 'The activation code has expired. Request a new code.',
      source: { pointer: '/code' },
    });
  }
}

/** 422: too many wrong codes; only a new code (resend_activation) helps. */
export class CodeLockedError extends DomainError {
  constructor() {
    super('rule', 'CODE_LOCKED', 'Code locked', {
      detail: 'Too many wrong codes. Request a new code.',
      source: { pointer: '/code' },
    });
  }
}

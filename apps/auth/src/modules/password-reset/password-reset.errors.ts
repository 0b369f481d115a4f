import { DomainError } from '@wp/http';

export type PasswordErrorCode = 'RESET_TOKEN_INVALID' | 'CURRENT_PASSWORD_INVALID';

/** 422: wrong, used or expired reset token, or an email it was not issued for (one answer). */
export class ResetTokenInvalidError extends DomainError {
  constructor() {
    super('rule', 'RESET_TOKEN_INVALID', 'Invalid reset token', {
      detail: 'The reset link is invalid, used or expired. Request a new one.',
      source: { pointer: '/reset_token' },
    });
  }
}

/**
 * 422 (not 401, which would make clients refresh and retry, docs/api.md § Authentication 5):
 * `current_password` was sent and is wrong.
 */
export class CurrentPasswordInvalidError extends DomainError {
  /** @param pointer the body field that held the password */
  constructor(pointer = '/current_password') {
    super('rule', 'CURRENT_PASSWORD_INVALID', 'Current password is wrong', {
      detail: `${pointer.slice(1)} does not match the account password.`,
      source: { pointer },
    });
  }
}

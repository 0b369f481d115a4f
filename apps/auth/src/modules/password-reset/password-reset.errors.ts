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

import { DomainError } from '@wp/http';

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

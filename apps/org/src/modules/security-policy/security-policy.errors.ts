import { DomainError } from '@wp/http';

export type SecurityPolicyErrorCode = 'TWO_FACTOR_NOT_ENABLED';

/**
 * 422: an OWNER whose own account has two-factor off cannot require it (they would shut
 * themselves out at once).
 */
export class OwnTwoFactorRequiredError extends DomainError {
  constructor() {
    super('rule', 'TWO_FACTOR_NOT_ENABLED', 'Turn on two-factor first', {
      detail: 'Turn on two-factor authentication for your own account before requiring it.',
      source: { pointer: '/data/attributes/requireTwoFactor' },
    });
  }
}

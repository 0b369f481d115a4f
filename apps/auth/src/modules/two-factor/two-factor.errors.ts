import { DomainError, ValidationFailedError } from '@wp/http';

export type TwoFactorErrorCode =
  | 'TWO_FACTOR_REQUIRED'
  | 'MFA_CHALLENGE_INVALID'
  | 'INVALID_TWO_FACTOR_CODE'
  | 'TWO_FACTOR_ALREADY_ENABLED'
  | 'TWO_FACTOR_NOT_ENABLED'
  | 'TWO_FACTOR_ENROLMENT_NOT_STARTED';

/** The login methods a challenge accepts (`meta.methods`). */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery_code'] as const;

/**
 * 403 `TWO_FACTOR_REQUIRED` from `POST /oauth/token`: the password was right, the account has
 * two-factor on, and no session was opened. `meta.challenge_token` (single use, lives
 * `meta.expires_in` seconds) goes to `POST /oauth/token/mfa` with a code
 * (docs/auth.md § Two-factor login). A 403 like `ACTIVATION_REQUIRED`, so that a client that
 * does not know two-factor shows an error instead of reading a session that is not there.
 */
export class TwoFactorRequiredError extends DomainError {
  constructor(challengeToken: string, expiresIn: number) {
    super('forbidden', 'TWO_FACTOR_REQUIRED', 'Second factor required', {
      detail:
        'Send the challenge token with a code from the authenticator app (or a recovery code) to POST /oauth/token/mfa.',
      meta: {
        challenge_token: challengeToken,
        expires_in: expiresIn,
        methods: SECOND_FACTOR_METHODS,
      },
    });
  }
}

/** 401: the challenge token is unknown, expired, already redeemed, used up or of another app. */
export class MfaChallengeInvalidError extends DomainError {
  constructor() {
    super('unauthenticated', 'MFA_CHALLENGE_INVALID', 'Challenge invalid', {
      detail: 'The challenge token is invalid, expired or already used. Sign in again.',
      source: { pointer: '/challenge_token' },
    });
  }
}

/**
 * A wrong, replayed or out-of-window code. 401 at the login step (like `INVALID_CREDENTIALS`),
 * with the challenge's attempts left; 422 on the bearer routes (like
 * `CURRENT_PASSWORD_INVALID`: a 401 there would make clients refresh and retry).
 */
export class InvalidTwoFactorCodeError extends DomainError {
  constructor(atLogin: boolean, attemptsRemaining?: number) {
    super(atLogin ? 'unauthenticated' : 'rule', 'INVALID_TWO_FACTOR_CODE', 'Invalid code', {
      detail: 'The code is wrong, expired or was already used.',
      ...(attemptsRemaining !== undefined ? { meta: { attemptsRemaining } } : {}),
    });
  }
}

/** 409: enrolment started while two-factor is already on. */
export class TwoFactorAlreadyEnabledError extends DomainError {
  constructor() {
    super('conflict', 'TWO_FACTOR_ALREADY_ENABLED', 'Two-factor already enabled', {
      detail: 'Turn two-factor off first to enrol another authenticator.',
    });
  }
}

/** 409: disabling or regenerating recovery codes while two-factor is off. */
export class TwoFactorNotEnabledError extends DomainError {
  constructor() {
    super('conflict', 'TWO_FACTOR_NOT_ENABLED', 'Two-factor not enabled', {
      detail: 'Two-factor authentication is not turned on for this account.',
    });
  }
}

/** 409: confirming without a started enrolment. */
export class EnrolmentNotStartedError extends DomainError {
  constructor() {
    super('conflict', 'TWO_FACTOR_ENROLMENT_NOT_STARTED', 'No enrolment in progress', {
      detail: 'Start the enrolment (POST /users/me/two_factor) before confirming it.',
    });
  }
}

/** 400 `VALIDATION_FAILED`: neither `code` nor `recovery_code`, or both, were sent. */
export function proofRequired(): ValidationFailedError {
  return ValidationFailedError.at(
    { pointer: '/code' },
    'send exactly one of "code" (authenticator app) or "recovery_code"',
  );
}

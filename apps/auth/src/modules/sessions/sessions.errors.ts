import { DomainError } from '@wp/http';

export type SessionsErrorCode =
  | 'INVALID_CREDENTIALS'
  | 'ACTIVATION_REQUIRED'
  | 'UNSUPPORTED_GRANT_TYPE'
  | 'REFRESH_TOKEN_INVALID'
  | 'REFRESH_TOKEN_REUSED';

/** 401: unknown user, wrong password or disabled account: one answer for all (no enumeration). */
export class InvalidCredentialsError extends DomainError {
  constructor() {
    super('unauthenticated', 'INVALID_CREDENTIALS', 'Invalid credentials', {
      detail: 'The username or password is incorrect.',
    });
  }
}

/** 403 with `meta.user_id`: the password is right but the account awaits its 6-digit code. */
export class ActivationRequiredError extends DomainError {
  constructor(userId: string) {
    super('forbidden', 'ACTIVATION_REQUIRED', 'Activation required', {
      detail: 'Activate the account with the 6-digit code before logging in.',
      meta: { user_id: userId },
    });
  }
}

/** 400: `grant_type` other than `password` or `client_credentials`. */
export class UnsupportedGrantTypeError extends DomainError {
  constructor() {
    super('invalid', 'UNSUPPORTED_GRANT_TYPE', 'Unsupported grant type', {
      detail: 'grant_type must be "password" (or omitted) or "client_credentials".',
      source: { pointer: '/grant_type' },
    });
  }
}

/**
 * 401 (docs/api.md § Errors: "refresh failure means the session expired"): unknown, expired or
 * revoked refresh token.
 */
export class RefreshTokenInvalidError extends DomainError {
  constructor() {
    super('unauthenticated', 'REFRESH_TOKEN_INVALID', 'Session expired', {
      detail: 'The refresh token is invalid, expired or revoked. Sign in again.',
    });
  }
}

/** 401: an already rotated refresh token was replayed; its whole family is now revoked. */
export class RefreshTokenReusedError extends DomainError {
  constructor() {
    super('unauthenticated', 'REFRESH_TOKEN_REUSED', 'Session expired', {
      detail: 'This refresh token was already used; the session has been ended. Sign in again.',
    });
  }
}

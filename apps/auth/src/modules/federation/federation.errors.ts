import { DomainError } from '@wp/http';

/** `client_id` is not an active client application: 400, never a redirect (RFC 6749 § 4.1.2.1). */
export class UnknownClientError extends DomainError {
  constructor() {
    super('invalid', 'INVALID_CLIENT', 'Unknown client', {
      detail: 'client_id is not an active client application.',
      source: { parameter: 'client_id' },
    });
  }
}

/** `redirect_uri` is not one the application registered exactly: 400, never a redirect. */
export class RedirectUriNotAllowedError extends DomainError {
  constructor() {
    super('invalid', 'REDIRECT_URI_NOT_ALLOWED', 'Redirect URI not allowed', {
      detail: 'redirect_uri is not registered for this client application.',
      source: { parameter: 'redirect_uri' },
    });
  }
}

/** The callback's `state` is unknown, used or expired: there is nowhere to redirect to. */
export class SsoStateInvalidError extends DomainError {
  constructor() {
    super('invalid', 'SSO_STATE_INVALID', 'Sign-in request unknown or expired', {
      detail: 'The sign-in request is unknown, already used or expired. Start again.',
      source: { parameter: 'state' },
    });
  }
}

/** `grant_type=authorization_code` refused: unknown, used, expired or mismatched code. */
export class InvalidGrantError extends DomainError {
  constructor(detail: string) {
    super('invalid', 'INVALID_GRANT', 'Invalid grant', { detail, source: { pointer: '/code' } });
  }
}

export class ConnectionSlugTakenError extends DomainError {
  constructor() {
    super('conflict', 'CONNECTION_SLUG_TAKEN', 'Slug taken', {
      detail: 'Another connection has this slug.',
      source: { pointer: '/slug' },
    });
  }
}

export class ConnectionNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Not found', { detail: 'No such connection.' });
  }
}

export class ApplicationNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Not found', { detail: 'No active client application.' });
  }
}

export class IdentityNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Not found', { detail: 'No such identity of yours.' });
  }
}

/** Unlinking would leave the account without a password or another identity. */
export class LastSignInMethodError extends DomainError {
  constructor() {
    super('conflict', 'LAST_SIGN_IN_METHOD', 'Last way to sign in', {
      detail: 'This identity is the only way to sign in to the account; set a password first.',
    });
  }
}

/**
 * A refusal of the browser flow sent back to the client's redirect_uri (RFC 6749 § 4.1.2.1):
 * `error` is the RFC's value, `code` the platform's (`error_code` parameter).
 */
export class SsoRedirectError extends Error {
  constructor(
    readonly error:
      'invalid_request' | 'access_denied' | 'server_error' | 'temporarily_unavailable',
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * 403 `SSO_REQUIRED`: the address is at a domain whose organization requires sign-in through
 * its own connection (docs/auth.md § Organization single sign-on); `meta.connection` is the
 * `connection` parameter of `/oauth/authorize` (null when the organization has none enabled).
 */
export class SsoRequiredError extends DomainError {
  constructor(
    readonly domain: string,
    readonly connection: string | null,
  ) {
    super('forbidden', 'SSO_REQUIRED', 'Single sign-on required', {
      detail: connection
        ? `Accounts at ${domain} sign in through their organization's provider: use /oauth/authorize with connection=${connection}.`
        : `Accounts at ${domain} sign in through their organization's provider, which is not available now.`,
      meta: { connection, domain },
    });
  }
}

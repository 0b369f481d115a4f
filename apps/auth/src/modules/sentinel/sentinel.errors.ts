import { DomainError } from '@wp/http';

/**
 * 401 `INVALID_CLIENT` (RFC 6749 § 5.2): unknown pass, wrong or rotated-away key, revoked,
 * expired or deleted pass. One answer for all, so the caller learns nothing about the pass.
 */
export class InvalidClientError extends DomainError {
  constructor() {
    super('unauthenticated', 'INVALID_CLIENT', 'Invalid client', {
      detail: 'The client credentials are invalid.',
    });
  }
}

/** 403 `REFERER_NOT_ALLOWED`: the pass restricts callers and `Referer`/`Origin` does not match. */
export class RefererNotAllowedError extends DomainError {
  constructor() {
    super('forbidden', 'REFERER_NOT_ALLOWED', 'Referer not allowed', {
      detail: "The request's Referer or Origin is not among the pass's allowed referers.",
    });
  }
}

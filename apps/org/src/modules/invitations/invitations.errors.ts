import { DomainError } from '@wp/http';

export type InvitationErrorCode =
  | 'NOT_FOUND'
  | 'redirect_to_add_member'
  | 'INVITATION_ALREADY_PENDING'
  | 'INVITATION_NOT_PENDING'
  | 'INVITATION_EXPIRED'
  | 'INVITATION_RESEND_TOO_SOON';

/**
 * 404 for an invitation that does not exist, was cancelled, belongs to another organization or
 * project, or (on `/me/…`) was not sent to the caller's email.
 */
export class InvitationNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Invitation not found');
  }
}

/**
 * 422 `redirect_to_add_member` (docs/api.md § Errors): the email already has a platform account,
 * so the client should add the user with `add_user` instead. The code is in `errors[0].code`,
 * and `meta.redirect_to_add_member` is true both in `errors[0].meta` and in the document `meta`.
 */
export class RedirectToAddMemberError extends DomainError {
  constructor(email: string) {
    const meta = { redirect_to_add_member: true, email };
    super('rule', 'redirect_to_add_member', 'The user already has an account', {
      detail: 'This email already has a platform account: add the user with add_user instead.',
      source: { pointer: '/data/attributes/email' },
      meta,
      documentMeta: meta,
    });
  }
}

/** 409 `INVITATION_ALREADY_PENDING`: an unexpired pending invitation exists for this email. */
export class InvitationAlreadyPendingError extends DomainError {
  constructor(invitationId: string) {
    super('conflict', 'INVITATION_ALREADY_PENDING', 'Invitation already pending', {
      detail: 'A pending invitation for this email exists; resend it or change its role.',
      meta: { invitationId },
    });
  }
}

/** 409 `INVITATION_NOT_PENDING`: the invitation was already accepted or rejected. */
export class InvitationNotPendingError extends DomainError {
  constructor(status: string) {
    super('conflict', 'INVITATION_NOT_PENDING', 'Invitation no longer pending', {
      detail: `The invitation was already ${status}.`,
    });
  }
}

/** 422 `INVITATION_EXPIRED`: past its `expiresAt`; an inviter can resend it to renew it. */
export class InvitationExpiredError extends DomainError {
  constructor() {
    super('rule', 'INVITATION_EXPIRED', 'Invitation expired', {
      detail: 'This invitation has expired; ask the inviter to resend it.',
    });
  }
}

/**
 * 429 `INVITATION_RESEND_TOO_SOON` with `Retry-After` (seconds until a slot frees): the
 * invitation's resend budget is spent (docs/org.md § Invitations).
 */
export class InvitationResendTooSoonError extends DomainError {
  constructor(retryAfterSeconds: number, limit: number, windowSeconds: number) {
    super('rate_limited', 'INVITATION_RESEND_TOO_SOON', 'Too many requests', {
      detail:
        `This invitation was resent ${limit} times in the last ${windowSeconds} s; ` +
        `the next resend is possible in ${retryAfterSeconds} s.`,
      retryAfter: retryAfterSeconds,
      meta: { retryAfterSeconds, limit, windowSeconds },
    });
  }
}

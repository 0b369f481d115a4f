import type { Invitation } from './invitation.entity.js';
import {
  InvitationAlreadyPendingError,
  InvitationExpiredError,
  InvitationNotFoundError,
  InvitationNotPendingError,
} from './invitations.errors.js';

type Stated = Pick<Invitation, 'status' | 'expiresAt'>;

/**
 * An invitation can still be acted on (by its invitee, or by an inviter: resend, change role,
 * cancel) only while `pending` (docs/org.md § Invitations). A cancelled one no longer exists for
 * anyone; an accepted or rejected one is answered with its state.
 * @throws InvitationNotFoundError 404 missing or cancelled
 * @throws InvitationNotPendingError 409 `INVITATION_NOT_PENDING` accepted or rejected
 */
export function assertPending<T extends Stated>(invitation: T | null): asserts invitation is T {
  if (!invitation || invitation.status === 'cancelled') throw new InvitationNotFoundError();
  if (invitation.status !== 'pending') throw new InvitationNotPendingError(invitation.status);
}

/**
 * The invitee's answer: accepting needs a pending invitation not past `expiresAt` (the instant
 * itself is past); rejecting needs only a pending one, expired or not.
 * @throws as {@link assertPending}, and InvitationExpiredError 422 `INVITATION_EXPIRED` when
 *   accepting an expired invitation
 */
export function assertRespondable<T extends Stated>(
  invitation: T | null,
  outcome: 'accepted' | 'rejected',
  now: Date,
): asserts invitation is T {
  assertPending(invitation);
  if (outcome === 'accepted' && invitation.expiresAt <= now) throw new InvitationExpiredError();
}

/**
 * A new invitation to an email that already has a pending one in the scope: refused while that
 * one runs; an expired one may be renewed in place (new token, new expiry).
 * @throws InvitationAlreadyPendingError 409 `INVITATION_ALREADY_PENDING` (meta: its id)
 */
export function assertNoneRunning(
  existing: (Stated & Pick<Invitation, 'id'>) | null,
  now: Date,
): void {
  if (existing && existing.expiresAt > now) throw new InvitationAlreadyPendingError(existing.id);
}

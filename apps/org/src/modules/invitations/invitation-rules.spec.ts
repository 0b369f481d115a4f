import type { InvitationStatus } from './invitation.entity.js';
import { assertNoneRunning, assertPending, assertRespondable } from './invitation-rules.js';
import {
  InvitationAlreadyPendingError,
  InvitationExpiredError,
  InvitationNotFoundError,
  InvitationNotPendingError,
} from './invitations.errors.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const invitation = (status: InvitationStatus, expiresInMs = 60_000) => ({
  id: 'inv-1',
  status,
  expiresAt: new Date(NOW.getTime() + expiresInMs),
});

describe('invitation states', () => {
  it('lets only a pending invitation be acted on; a cancelled one no longer exists', () => {
    expect(() => assertPending(invitation('pending'))).not.toThrow();
    expect(() => assertPending(invitation('pending', -1))).not.toThrow();
    expect(() => assertPending(null)).toThrow(InvitationNotFoundError);
    expect(() => assertPending(invitation('cancelled'))).toThrow(InvitationNotFoundError);
    for (const status of ['accepted', 'rejected'] as const) {
      expect(() => assertPending(invitation(status))).toThrow(InvitationNotPendingError);
      expect(() => assertPending(invitation(status))).toThrow(
        `The invitation was already ${status}.`,
      );
    }
  });

  it('accepts until the expiry instant, not at it, and rejects expired ones too', () => {
    expect(() => assertRespondable(invitation('pending', 1), 'accepted', NOW)).not.toThrow();
    expect(() => assertRespondable(invitation('pending', 0), 'accepted', NOW)).toThrow(
      InvitationExpiredError,
    );
    expect(() => assertRespondable(invitation('pending', -1), 'rejected', NOW)).not.toThrow();
  });

  it('answers a second response with the state of the first', () => {
    expect(() => assertRespondable(invitation('accepted'), 'rejected', NOW)).toThrow(
      InvitationNotPendingError,
    );
    expect(() => assertRespondable(invitation('rejected'), 'accepted', NOW)).toThrow(
      InvitationNotPendingError,
    );
    expect(() => assertRespondable(invitation('cancelled'), 'accepted', NOW)).toThrow(
      InvitationNotFoundError,
    );
  });

  it('refuses a second invitation while one runs, and renews an expired one', () => {
    expect(() => assertNoneRunning(null, NOW)).not.toThrow();
    expect(() => assertNoneRunning(invitation('pending', 0), NOW)).not.toThrow();
    try {
      assertNoneRunning(invitation('pending', 1), NOW);
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(InvitationAlreadyPendingError);
      expect((error as InvitationAlreadyPendingError).meta).toEqual({ invitationId: 'inv-1' });
    }
  });
});

import type { Invitation } from './invitation.entity.js';
import { invitationState, toInvitationResource } from './invitation.serializer.js';

const invitation = (overrides: Partial<Invitation> = {}): Invitation => ({
  id: '0b5c1f7e-0000-4000-8000-000000000001',
  organizationId: 7,
  projectId: null,
  email: 'a@example.com',
  emailKey: 'a@example.com',
  orgRole: 'ADMIN',
  projectRole: null,
  projectOnly: false,
  status: 'pending',
  tokenHash: 'f'.repeat(64),
  invitedBy: '0b5c1f7e-0000-4000-8000-000000000002',
  expiresAt: new Date(Date.now() + 60_000),
  lastSentAt: new Date(),
  sendCount: 1,
  resentAt: [],
  respondedAt: null,
  respondedBy: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...overrides,
});

describe('invitation serializer', () => {
  it('shows a pending invitation past its expiry as expired, other states as stored', () => {
    expect(invitationState(invitation({ expiresAt: new Date(Date.now() - 1) }))).toBe('expired');
    expect(invitationState(invitation())).toBe('pending');
    expect(invitationState(invitation({ status: 'accepted', expiresAt: new Date(0) }))).toBe(
      'accepted',
    );
  });

  it('writes roles in the invitation wire form, ids as strings, and never the token hash', () => {
    const res = toInvitationResource(invitation());
    expect(res.type).toBe('membershipInvitation');
    expect(res.attributes).toMatchObject({
      orgRole: 'admin',
      projectRole: null,
      organizationId: '7',
    });
    expect(JSON.stringify(res)).not.toContain('f'.repeat(64));
  });
});

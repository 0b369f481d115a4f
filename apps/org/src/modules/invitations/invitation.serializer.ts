import { roleToInvitation, type InvitationRole } from '@wp/contracts';
import { resource, type Resource } from '@wp/http';
import type { Invitation } from './invitation.entity.js';

export type InvitationState = 'pending' | 'expired' | 'accepted' | 'rejected' | 'cancelled';

export type InvitationAttributes = {
  email: string;
  orgRole: InvitationRole | null;
  projectRole: InvitationRole | null;
  projectOnly: boolean;
  status: InvitationState;
  organizationId: string;
  projectId: string | null;
  invitedBy: string;
  expiresAt: string;
  lastSentAt: string;
  sendCount: number;
  createdAt: string;
  updatedAt: string;
  organizationName?: string;
  projectName?: string | null;
};

/** The state a client sees: a pending invitation past its expiry is `expired`. */
export function invitationState(invitation: Invitation, now = new Date()): InvitationState {
  return invitation.status === 'pending' && invitation.expiresAt <= now
    ? 'expired'
    : invitation.status;
}

/**
 * Invitation resource (docs/api.md § Invitations and members; the record fields are not shown by
 * the contract, see docs/org.md): `type` `membershipInvitation`, roles in the invitation wire
 * form (lower case). The token is never part of it.
 */
export function toInvitationResource(
  invitation: Invitation,
  names?: { organizationName: string; projectName: string | null },
): Resource<InvitationAttributes> {
  return resource('membershipInvitation', invitation.id, {
    email: invitation.email,
    orgRole: invitation.orgRole && roleToInvitation(invitation.orgRole),
    projectRole: invitation.projectRole && roleToInvitation(invitation.projectRole),
    projectOnly: invitation.projectOnly,
    status: invitationState(invitation),
    organizationId: String(invitation.organizationId),
    projectId: invitation.projectId === null ? null : String(invitation.projectId),
    invitedBy: invitation.invitedBy,
    expiresAt: invitation.expiresAt.toISOString(),
    lastSentAt: invitation.lastSentAt.toISOString(),
    sendCount: invitation.sendCount,
    createdAt: invitation.createdAt.toISOString(),
    updatedAt: invitation.updatedAt.toISOString(),
    ...(names ? names : {}),
  });
}

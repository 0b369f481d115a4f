import { Inject, Injectable } from '@nestjs/common';
import { roleToInvitation, type Role } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';
import type { Invitation } from './invitation.entity.js';

export interface InvitationMailContext {
  organizationName: string;
  projectName: string | null;
  /** Who sent it, as the invitee will read it (email, else nothing). */
  inviter: string | null;
}

/** Template name of invitation mails in `notify.requested`. */
export const INVITATION_TEMPLATE = 'org.invitation';

/**
 * Renders the invitation mail and enqueues it as `notify.requested` in the caller's
 * transaction (docs/architecture.md § Mail and SMS): auth's notification consumer delivers it. The
 * link carries the token in the URL fragment, which never reaches a server.
 */
@Injectable()
export class InvitationMailer {
  constructor(
    private readonly outbox: Outbox,
    @Inject(ORG_CONFIG) private readonly config: OrgConfig,
  ) {}

  async send(invitation: Invitation, token: string, context: InvitationMailContext): Promise<void> {
    const link =
      `${this.config.INVITATION_ACCEPT_URL}#invitation_id=${invitation.id}` +
      `&token=${encodeURIComponent(token)}`;
    const target = context.projectName
      ? `the project "${context.projectName}" in "${context.organizationName}"`
      : `the organization "${context.organizationName}"`;
    const role = describeRoles(invitation);
    const by = context.inviter ? `${context.inviter} invited you` : 'You have been invited';
    const text = [
      `${by} to join ${target} as ${role}.`,
      '',
      `Open this link to accept or decline: ${link}`,
      `If you have no account yet, register with this email address (${invitation.email}) and the invitation will be waiting for you.`,
      '',
      `The invitation expires on ${invitation.expiresAt.toISOString()}.`,
    ].join('\n');
    await this.outbox.enqueue('notify.requested', {
      channel: 'email',
      to: invitation.email,
      subject: context.projectName
        ? `Invitation to ${context.projectName} (${context.organizationName})`
        : `Invitation to ${context.organizationName}`,
      text,
      headers: { 'X-Invitation-Id': invitation.id },
      template: INVITATION_TEMPLATE,
    });
  }
}

function describeRoles(invitation: Invitation): string {
  const name = (role: Role) => roleToInvitation(role);
  if (invitation.projectRole && invitation.orgRole && !invitation.projectOnly) {
    return `${name(invitation.projectRole)} (organization role: ${name(invitation.orgRole)})`;
  }
  if (invitation.projectRole) return name(invitation.projectRole);
  return name(invitation.orgRole ?? 'MEMBER');
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MembershipEvents } from '../memberships/membership-events.js';
import { OrganizationMembersRepository } from '../memberships/organization-members.repository.js';
import type { Invitation } from './invitation.entity.js';

/**
 * What accepting an invitation grants, in the acceptance transaction: the organization role
 * (unless project-only). Someone who already holds a membership keeps their role: an invitation
 * never silently promotes or demotes an existing member.
 */
@Injectable()
export class InvitationAcceptance {
  constructor(
    private readonly members: OrganizationMembersRepository,
    private readonly membershipEvents: MembershipEvents,
  ) {}

  /** Row-locks the organization (the lock every membership command takes first). */
  lockOrganization(organizationId: number, manager: EntityManager): Promise<void> {
    return this.members.lockOrganization(organizationId, manager);
  }

  async grant(invitation: Invitation, userId: string, manager: EntityManager): Promise<void> {
    if (invitation.orgRole !== null && !invitation.projectOnly) {
      const existing = await this.members.find(invitation.organizationId, userId, manager);
      if (!existing) {
        const version = await this.membershipEvents.changed(
          {
            organizationId: invitation.organizationId,
            projectId: null,
            userId,
            role: invitation.orgRole,
            accessDenied: false,
          },
          manager,
        );
        await this.members.insert(
          { organizationId: invitation.organizationId, userId, role: invitation.orgRole, version },
          manager,
        );
      }
    }
  }
}

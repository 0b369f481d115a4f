import { Injectable } from '@nestjs/common';
import { OrganizationMembersRepository } from '../memberships/organization-members.repository.js';
import { OrganizationMemberships } from '../memberships/organization-memberships.js';
import { ProjectMembersRepository } from '../memberships/project-members.repository.js';
import { ProjectMemberships } from '../memberships/project-memberships.js';
import type { Invitation } from './invitation.entity.js';

/**
 * What accepting an invitation grants, in the acceptance transaction: the organization role
 * (unless project-only) and, for a project invitation, the project role. A membership the user
 * already holds is left exactly as it is — role and, for projects, denied access: an invitation
 * never silently promotes, demotes or undoes a later `deny_access`.
 */
@Injectable()
export class InvitationAcceptance {
  constructor(
    private readonly members: OrganizationMembersRepository,
    private readonly projectMembers: ProjectMembersRepository,
    private readonly projectMemberships: ProjectMemberships,
    private readonly organizationMemberships: OrganizationMemberships,
  ) {}

  /** Row-locks the organization (the lock every membership command takes first). */
  lockOrganization(organizationId: number): Promise<void> {
    return this.members.lockOrganization(organizationId);
  }

  async grant(invitation: Invitation, userId: string): Promise<void> {
    const organizationId = invitation.organizationId;
    if (invitation.orgRole !== null && !invitation.projectOnly) {
      const existing = await this.members.find(organizationId, userId);
      if (!existing) {
        await this.organizationMemberships.add({ organizationId, userId }, invitation.orgRole);
      }
    }
    if (invitation.projectId !== null && invitation.projectRole !== null) {
      const key = { organizationId, projectId: invitation.projectId, userId };
      if (!(await this.projectMembers.find(invitation.projectId, userId))) {
        await this.projectMemberships.add(key, invitation.projectRole);
      }
    }
  }
}

import { Injectable } from '@nestjs/common';
import type { Role } from '@wp/contracts';
import { MembershipEvents } from './membership-events.js';
import type { OrganizationMembership } from './organization-membership.entity.js';
import { OrganizationMembersRepository } from './organization-members.repository.js';

export interface OrganizationMembershipKey {
  organizationId: number;
  userId: string;
}

/**
 * Every write to `organization_membership` goes through here, in the caller's transaction, so
 * that each one publishes `org.membership.changed` (organization level, `projectId: null`,
 * strictly increasing version) beside the row it changes. Rules and locks are the callers'
 * (they hold the organization row lock); the project-level twin is {@link ProjectMemberships}.
 */
@Injectable()
export class OrganizationMemberships {
  constructor(
    private readonly members: OrganizationMembersRepository,
    private readonly events: MembershipEvents,
  ) {}

  /** Adds a member with `role`. @returns the new membership row */
  async add(key: OrganizationMembershipKey, role: Role): Promise<OrganizationMembership> {
    const version = await this.events.changed({
      ...key,
      projectId: null,
      role,
      accessDenied: false,
    });
    return this.members.insert({ ...key, role, version });
  }

  /** Changes the role of an existing member. */
  async setRole(key: OrganizationMembershipKey, role: Role): Promise<void> {
    const version = await this.events.changed({
      ...key,
      projectId: null,
      role,
      accessDenied: false,
    });
    await this.members.updateRole(key.organizationId, key.userId, role, version);
  }

  /** Removes a member (`role: null` event); their project memberships are the caller's. */
  async remove(key: OrganizationMembershipKey): Promise<void> {
    await this.members.delete(key.organizationId, key.userId);
    await this.events.changed({ ...key, projectId: null, role: null, accessDenied: false });
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectMemberships } from '../memberships/project-memberships.js';

/**
 * What else goes when a user leaves an organization, in the same transaction: their memberships
 * in its projects (each with `org.membership.changed`, `role: null`). Leaving the tenant ends
 * every standing in it.
 */
@Injectable()
export class MemberCleanup {
  constructor(private readonly projectMemberships: ProjectMemberships) {}

  async afterOrganizationExit(
    organizationId: number,
    userId: string,
    manager: EntityManager,
  ): Promise<void> {
    await this.projectMemberships.removeAllInOrganization(organizationId, userId, manager);
  }
}

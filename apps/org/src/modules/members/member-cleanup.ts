import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectMemberships } from '../memberships/project-memberships.js';
import { UserSettingsRepository } from '../user-settings/user-settings.repository.js';

/**
 * What else goes when a user leaves an organization, in the same transaction: their memberships
 * in its projects (each with `org.membership.changed`, `role: null`). Leaving the tenant ends
 * every standing in it. Their pinned projects there go too (docs/org.md § User settings).
 */
@Injectable()
export class MemberCleanup {
  constructor(
    private readonly projectMemberships: ProjectMemberships,
    private readonly userSettings: UserSettingsRepository,
  ) {}

  async afterOrganizationExit(
    organizationId: number,
    userId: string,
    manager: EntityManager,
  ): Promise<void> {
    await this.projectMemberships.removeAllInOrganization(organizationId, userId, manager);
    await this.userSettings.deletePinsInOrganization(userId, organizationId, manager);
  }
}

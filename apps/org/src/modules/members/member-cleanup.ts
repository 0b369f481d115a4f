import { Injectable } from '@nestjs/common';
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

  async afterOrganizationExit(organizationId: number, userId: string): Promise<void> {
    await this.projectMemberships.removeAllInOrganization(organizationId, userId);
    await this.userSettings.deletePinsInOrganization(userId, organizationId);
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * What else goes when a user leaves an organization, in the same transaction. Issue 5 adds the
 * user's project memberships in that organization (each with its `org.membership.changed`,
 * `role: null`).
 */
@Injectable()
export class MemberCleanup {
  async afterOrganizationExit(
    _organizationId: number,
    _userId: string,
    _manager: EntityManager,
  ): Promise<void> {
    // Nothing else holds organization-scoped standing yet.
  }
}

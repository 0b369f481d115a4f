import { Injectable } from '@nestjs/common';
import type { EventPayload } from '@wp/contracts';
import type { EntityManager } from 'typeorm';

@Injectable()
export class MembershipsRepository {
  /** Applies an organization-level membership change unless a newer version is already stored. */
  async applyOrganizationChange(
    change: EventPayload<'org.membership.changed'>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO organization_member (organization_id, user_id, role, version)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, user_id) DO UPDATE
         SET role = EXCLUDED.role, version = EXCLUDED.version
         WHERE organization_member.version < EXCLUDED.version`,
      [change.organizationId, change.userId, change.role, change.version],
    );
  }
}

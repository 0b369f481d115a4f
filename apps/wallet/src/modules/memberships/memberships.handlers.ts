import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { MembershipsRepository } from './memberships.repository.js';

/**
 * Keeps the membership read model in line with org
 * (docs/architecture.md § Data ownership and events): `org.membership.changed` (organization and
 * project level, incl. `accessDenied`), `org.project.created` / `.deleted` (which organization a
 * project belongs to), `org.organization.deleted`, and `org.sentinel_pass.changed` (which project
 * an agent belongs to).
 */
@Injectable()
export class MembershipsHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly memberships: MembershipsRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.membership.changed', 'memberships', async (event) => {
      const change = event.payload;
      if (change.projectId === null) {
        await this.memberships.applyOrganizationChange(change);
      } else {
        await this.memberships.applyProjectChange({ ...change, projectId: change.projectId });
      }
      if (change.organizationVersion !== undefined) {
        await this.memberships.applyOrganizationVersion(
          change.organizationId,
          change.organizationVersion,
        );
      }
    });
    this.bus.on('org.project.created', 'projects', (event) =>
      this.memberships.projectCreated(event.payload),
    );
    this.bus.on('org.project.deleted', 'project_deletions', (event) =>
      this.memberships.projectDeleted(event.payload),
    );
    this.bus.on('org.organization.deleted', 'organization_deletions', (event) =>
      this.memberships.organizationDeleted(event.payload.organizationId),
    );
    this.bus.on('org.sentinel_pass.changed', 'agents', (event) =>
      this.memberships.applyAgentChange(event.payload),
    );
  }
}

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
    this.bus.on('org.membership.changed', 'memberships', async (event, manager) => {
      const change = event.payload;
      if (change.projectId === null) {
        await this.memberships.applyOrganizationChange(change, manager);
      } else {
        await this.memberships.applyProjectChange(
          { ...change, projectId: change.projectId },
          manager,
        );
      }
      if (change.organizationVersion !== undefined) {
        await this.memberships.applyOrganizationVersion(
          change.organizationId,
          change.organizationVersion,
          manager,
        );
      }
    });
    this.bus.on('org.project.created', 'projects', (event, manager) =>
      this.memberships.projectCreated(event.payload, manager),
    );
    this.bus.on('org.project.deleted', 'project_deletions', (event, manager) =>
      this.memberships.projectDeleted(event.payload, manager),
    );
    this.bus.on('org.organization.deleted', 'organization_deletions', (event, manager) =>
      this.memberships.organizationDeleted(event.payload.organizationId, manager),
    );
    this.bus.on('org.sentinel_pass.changed', 'agents', (event, manager) =>
      this.memberships.applyAgentChange(event.payload, manager),
    );
  }
}

import { Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import type { Principal } from '@wp/security';
import { DataSource } from 'typeorm';
import type { Organization } from './organization.entity.js';
import { OrganizationsRepository, type OrganizationWithRole } from './organizations.repository.js';

/** Name of the project every new organization starts with (ARCHITECTURE § 4 "Default project"). */
export const DEFAULT_PROJECT_NAME = 'Default project';

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly outbox: Outbox,
  ) {}

  /**
   * `POST /organizations`: the creator becomes OWNER and a default project is made, all in one
   * transaction with `org.organization.created`, `org.membership.changed` and
   * `org.project.created` (the wallet service opens the organization wallet from the first).
   */
  async create(principal: Principal, name: string): Promise<OrganizationWithRole> {
    return this.dataSource.transaction(async (manager) => {
      const organization: Organization = await this.organizations.insert(name.trim(), manager);
      const membership = await this.organizations.insertMembership(
        { organizationId: organization.id, userId: principal.id, role: 'OWNER' },
        manager,
      );
      const project = await this.organizations.insertProject(
        { organizationId: organization.id, name: DEFAULT_PROJECT_NAME, isDefault: true },
        manager,
      );
      await this.outbox.enqueue(manager, 'org.organization.created', {
        organizationId: organization.id,
        name: organization.name,
        createdBy: principal.id,
        createdAt: organization.createdAt.toISOString(),
      });
      await this.outbox.enqueue(manager, 'org.membership.changed', {
        organizationId: organization.id,
        projectId: null,
        userId: principal.id,
        role: 'OWNER',
        accessDenied: false,
        version: membership.version,
      });
      await this.outbox.enqueue(manager, 'org.project.created', {
        organizationId: organization.id,
        projectId: project.id,
        name: project.name,
        isDefault: true,
        createdBy: principal.id,
        createdAt: project.createdAt.toISOString(),
      });
      return { organization, role: 'OWNER' };
    });
  }

  /** `GET /organizations`: every organization the caller belongs to. */
  listForUser(principal: Principal): Promise<OrganizationWithRole[]> {
    return this.organizations.findForUser(principal.id);
  }
}

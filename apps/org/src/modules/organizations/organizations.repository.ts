import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '@wp/contracts';
import { Project } from '../projects/project.entity.js';
import { OrganizationMembership } from './organization-membership.entity.js';
import { Organization } from './organization.entity.js';

export interface OrganizationWithRole {
  organization: Organization;
  role: Role;
}

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(name: string, manager: EntityManager): Promise<Organization> {
    const organization = manager.create(Organization, { name });
    return manager.save(organization);
  }

  async insertMembership(
    membership: Pick<OrganizationMembership, 'organizationId' | 'userId' | 'role'>,
    manager: EntityManager,
  ): Promise<OrganizationMembership> {
    return manager.save(manager.create(OrganizationMembership, { ...membership, version: 1 }));
  }

  async insertProject(
    project: Pick<Project, 'organizationId' | 'name' | 'isDefault'>,
    manager: EntityManager,
  ): Promise<Project> {
    return manager.save(manager.create(Project, project));
  }

  /** Organizations the user belongs to, with the user's role, oldest first (one query). */
  async findForUser(userId: string): Promise<OrganizationWithRole[]> {
    const rows = await this.dataSource
      .getRepository(Organization)
      .createQueryBuilder('o')
      .innerJoin(OrganizationMembership, 'm', 'm.organization_id = o.id AND m.user_id = :userId', {
        userId,
      })
      .addSelect('m.role', 'member_role')
      .orderBy('o.id', 'ASC')
      .getRawAndEntities<{ member_role: Role }>();
    return rows.entities.map((organization, i) => ({
      organization,
      role: rows.raw[i].member_role,
    }));
  }
}

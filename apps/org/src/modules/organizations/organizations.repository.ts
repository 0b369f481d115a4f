import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '@wp/contracts';
import { OrganizationMembership } from './organization-membership.entity.js';
import { Organization } from './organization.entity.js';

export interface OrganizationWithRole {
  organization: Organization;
  role: Role;
}

/** Organizations: the only code that reads or writes `organization`. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(name: string, manager: EntityManager): Promise<Organization> {
    const organization = manager.create(Organization, { name });
    return manager.save(organization);
  }

  /** Renames; returns the row as stored (new `updatedAt`). */
  async rename(id: number, name: string, manager: EntityManager): Promise<Organization> {
    await manager.update(Organization, { id }, { name });
    return manager.findOneByOrFail(Organization, { id });
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

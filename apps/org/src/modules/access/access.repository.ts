import { Injectable } from '@nestjs/common';
import type { Role } from '@wp/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { Organization } from '../organizations/organization.entity.js';

export interface OrganizationAccessRow {
  organization: Organization;
  role: Role | null;
}

interface RawAccessRow {
  id: number;
  name: string;
  created_at: Date;
  updated_at: Date;
  member_role: Role | null;
}

/** The one query behind every organization-scoped request: the organization and the caller's role. */
@Injectable()
export class AccessRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * @param lock `FOR UPDATE` on the organization row: membership commands serialize per
   *   organization, so rules such as "the last owner" hold under concurrency.
   */
  async findOrganizationAccess(
    organizationId: number,
    userId: string,
    options: { manager?: EntityManager; lock?: boolean } = {},
  ): Promise<OrganizationAccessRow | null> {
    const manager = options.manager ?? this.dataSource.manager;
    const rows: RawAccessRow[] = await manager.query(
      `SELECT o.id, o.name, o.created_at, o.updated_at, m.role AS member_role
       FROM organization o
       LEFT JOIN organization_membership m ON m.organization_id = o.id AND m.user_id = $2
       WHERE o.id = $1${options.lock ? ' FOR UPDATE OF o' : ''}`,
      [organizationId, userId],
    );
    const row = rows[0];
    if (!row) return null;
    const organization = Object.assign(new Organization(), {
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
    return { organization, role: row.member_role };
  }
}

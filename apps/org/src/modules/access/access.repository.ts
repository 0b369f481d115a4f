import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import { Organization } from '../tenants/organization.entity.js';

export interface OrganizationAccessRow {
  organization: Organization;
  role: Role | null;
  /** The user holds a project membership with access in this organization (project-only members). */
  hasProjectAccess: boolean;
  /** The user's account has two-factor on (user directory; false when unknown). */
  twoFactorEnabled: boolean;
}

export interface ProjectStandingRow {
  /** Null when the project does not exist in this organization. */
  projectId: number | null;
  projectRole: Role | null;
  accessDenied: boolean;
}

interface RawAccessRow {
  id: number;
  name: string;
  created_at: Date;
  updated_at: Date;
  require_two_factor: boolean;
  member_role: Role | null;
  has_project_access: boolean;
  two_factor_enabled: boolean;
}

/** The queries behind every organization- or project-scoped request: who the caller is there. */
@Injectable()
export class AccessRepository {
  constructor(private readonly txHost: TxHost) {}

  /**
   * @param lock `FOR UPDATE` on the organization row: membership and project commands
   *   serialize per organization, so rules such as "the last owner" hold under concurrency;
   *   only in the active transaction (else it throws).
   */
  async findOrganizationAccess(
    organizationId: number,
    userId: string,
    options: { lock?: boolean } = {},
  ): Promise<OrganizationAccessRow | null> {
    const manager = options.lock ? activeTransaction(this.txHost) : this.txHost.tx;
    const rows: RawAccessRow[] = await manager.query(
      `SELECT o.id, o.name, o.created_at, o.updated_at, o.require_two_factor,
              m.role AS member_role,
              EXISTS (SELECT 1 FROM project_membership pm
                      WHERE pm.organization_id = o.id AND pm.user_id = $2
                        AND NOT pm.access_denied) AS has_project_access,
              coalesce((SELECT d.two_factor_enabled FROM directory_user d WHERE d.id = $2),
                       false) AS two_factor_enabled
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
      requireTwoFactor: row.require_two_factor,
    });
    return {
      organization,
      role: row.member_role,
      hasProjectAccess: row.has_project_access,
      twoFactorEnabled: row.two_factor_enabled,
    };
  }

  /** The user's explicit standing in a project of an organization. */
  async findProjectStanding(
    organizationId: number,
    projectId: number,
    userId: string,
  ): Promise<ProjectStandingRow> {
    const manager = this.txHost.tx;
    const rows: { id: number; role: Role | null; access_denied: boolean | null }[] =
      await manager.query(
        `SELECT p.id, pm.role, pm.access_denied
         FROM project p
         LEFT JOIN project_membership pm ON pm.project_id = p.id AND pm.user_id = $3
         WHERE p.id = $2 AND p.organization_id = $1`,
        [organizationId, projectId, userId],
      );
    const row = rows[0];
    return {
      projectId: row?.id ?? null,
      projectRole: row?.role ?? null,
      accessDenied: row?.access_denied ?? false,
    };
  }
}

import { Injectable } from '@nestjs/common';
import type { EventPayload, Role } from '@wp/contracts';
import { applyTenantVersion, TxHost } from '@wp/persistence';
import type { MembershipRoles } from '@wp/messaging';
import { DataSource } from 'typeorm';

export type { MembershipRoles };

export const NO_ROLES: MembershipRoles = {
  organizationRole: null,
  projectRole: null,
  accessDenied: false,
};

export interface ProjectRef {
  projectId: number;
  organizationId: number;
  name: string;
  deleted: boolean;
}

export interface AgentRef {
  passId: string;
  organizationId: number;
  projectId: number;
  title: string;
  deleted: boolean;
}

/**
 * The membership read model (organization and project members, projects, agents), fed by org's
 * events. Every write is idempotent and ignores stale redeliveries (`version`, tombstones).
 */
@Injectable()
export class MembershipsRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /** Applies an organization-level membership change unless a newer version is already stored. */
  async applyOrganizationChange(change: EventPayload<'org.membership.changed'>): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO organization_member (organization_id, user_id, role, version)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, user_id) DO UPDATE
         SET role = EXCLUDED.role, version = EXCLUDED.version
         WHERE organization_member.version < EXCLUDED.version`,
      [change.organizationId, change.userId, change.role, change.version],
    );
  }

  /** Records the organization permission version applied with a change (`applyTenantVersion`). */
  applyOrganizationVersion(organizationId: number, version: number): Promise<void> {
    return applyTenantVersion(this.txHost.tx, organizationId, version);
  }

  /** Applies a project-level membership change (role, access denial) unless stale. */
  async applyProjectChange(
    change: EventPayload<'org.membership.changed'> & { projectId: number },
  ): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO project_member (project_id, user_id, organization_id, role, access_denied, version)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (project_id, user_id) DO UPDATE
         SET role = EXCLUDED.role, access_denied = EXCLUDED.access_denied,
             version = EXCLUDED.version
         WHERE project_member.version < EXCLUDED.version`,
      [
        change.projectId,
        change.userId,
        change.organizationId,
        change.role,
        change.accessDenied,
        change.version,
      ],
    );
  }

  /** Records a project (a redelivery after its deletion changes nothing). */
  async projectCreated(project: EventPayload<'org.project.created'>): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO project (project_id, organization_id, name) VALUES ($1, $2, $3)
       ON CONFLICT (project_id) DO NOTHING`,
      [project.projectId, project.organizationId, project.name],
    );
  }

  /** Marks a project deleted, for good (also when its creation has not arrived yet). */
  async projectDeleted(project: EventPayload<'org.project.deleted'>): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO project (project_id, organization_id, name, deleted) VALUES ($1, $2, '', true)
       ON CONFLICT (project_id) DO UPDATE SET deleted = true`,
      [project.projectId, project.organizationId],
    );
  }

  /**
   * An organization was deleted: so were its projects, and nobody is a member any more (role
   * tombstones, versions kept, so a stale redelivery cannot bring a membership back).
   */
  async organizationDeleted(organizationId: number): Promise<void> {
    await this.txHost.tx.query('UPDATE project SET deleted = true WHERE organization_id = $1', [
      organizationId,
    ]);
    await this.txHost.tx.query(
      'UPDATE organization_member SET role = NULL WHERE organization_id = $1',
      [organizationId],
    );
    await this.txHost.tx.query('UPDATE project_member SET role = NULL WHERE organization_id = $1', [
      organizationId,
    ]);
  }

  /** Applies a Sentinel Pass change unless stale; a deletion is final. */
  async applyAgentChange(pass: EventPayload<'org.sentinel_pass.changed'>): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO agent (pass_id, organization_id, project_id, title, deleted, version)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (pass_id) DO UPDATE
         SET title = EXCLUDED.title, deleted = agent.deleted OR EXCLUDED.deleted,
             version = EXCLUDED.version
         WHERE agent.version < EXCLUDED.version`,
      [pass.passId, pass.organizationId, pass.projectId, pass.title, pass.deleted, pass.version],
    );
  }

  /** The user's roles towards an organization and optionally one of its projects. */
  async rolesOf(
    userId: string,
    organizationId: number,
    projectId: number | null,
  ): Promise<MembershipRoles> {
    const [row]: RolesRow[] = await this.dataSource.query(
      `SELECT (SELECT role FROM organization_member
                WHERE organization_id = $2 AND user_id = $1) AS organization_role,
              pm.role AS project_role, coalesce(pm.access_denied, false) AS access_denied,
              (SELECT version FROM tenant_permission_version
                WHERE organization_id = $2) AS applied_version
       FROM (SELECT 1) one
       LEFT JOIN project_member pm ON pm.project_id = $3 AND pm.user_id = $1`,
      [userId, organizationId, projectId],
    );
    return toRoles(row);
  }

  /**
   * Every member of the organization and of the project (when given) with their roles, to be
   * filtered by the wallet policy (e.g. who may accept a transfer into a wallet).
   */
  async membersWithRoles(
    organizationId: number,
    projectId: number | null,
  ): Promise<{ userId: string; roles: MembershipRoles }[]> {
    const rows: (RolesRow & { user_id: string })[] = await this.dataSource.query(
      `SELECT u.user_id, om.role AS organization_role, pm.role AS project_role,
              coalesce(pm.access_denied, false) AS access_denied
       FROM (SELECT user_id FROM organization_member
             WHERE organization_id = $1 AND role IS NOT NULL
             UNION
             SELECT user_id FROM project_member WHERE project_id = $2 AND role IS NOT NULL) u
       LEFT JOIN organization_member om ON om.organization_id = $1 AND om.user_id = u.user_id
       LEFT JOIN project_member pm ON pm.project_id = $2 AND pm.user_id = u.user_id
       ORDER BY u.user_id`,
      [organizationId, projectId],
    );
    return rows.map((r) => ({ userId: r.user_id, roles: toRoles(r) }));
  }

  async findProject(projectId: number): Promise<ProjectRef | null> {
    const [row]: {
      project_id: number;
      organization_id: number;
      name: string;
      deleted: boolean;
    }[] = await this.dataSource.query(
      'SELECT project_id, organization_id, name, deleted FROM project WHERE project_id = $1',
      [projectId],
    );
    return row
      ? {
          projectId: row.project_id,
          organizationId: row.organization_id,
          name: row.name,
          deleted: row.deleted,
        }
      : null;
  }

  async findAgent(passId: string): Promise<AgentRef | null> {
    const [row]: {
      pass_id: string;
      organization_id: number;
      project_id: number;
      title: string;
      deleted: boolean;
    }[] = await this.dataSource.query(
      'SELECT pass_id, organization_id, project_id, title, deleted FROM agent WHERE pass_id = $1',
      [passId],
    );
    return row
      ? {
          passId: row.pass_id,
          organizationId: row.organization_id,
          projectId: row.project_id,
          title: row.title,
          deleted: row.deleted,
        }
      : null;
  }
}

interface RolesRow {
  organization_role: Role | null;
  project_role: Role | null;
  access_denied: boolean;
  applied_version?: string | null;
}

function toRoles(row: RolesRow | undefined): MembershipRoles {
  if (!row) return NO_ROLES;
  return {
    organizationRole: row.organization_role,
    projectRole: row.project_role,
    accessDenied: row.access_denied,
    appliedVersion: Number(row.applied_version ?? 0),
  };
}

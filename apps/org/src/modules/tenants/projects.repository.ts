import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import {
  effectiveRoleSql,
  escapeLike,
  PROJECT_SORT_SQL,
  type ProjectListFilter,
  type ProjectSortKey,
} from './project-list.js';
import { Project } from './project.entity.js';

/** A project with the caller's standing in it (before `effectiveProjectRole`). */
export interface ProjectStandingRow {
  project: Project;
  organizationRole: Role | null;
  projectRole: Role | null;
  accessDenied: boolean;
}

interface RawProjectRow {
  id: number;
  organization_id: number;
  name: string;
  is_default: boolean;
  created_by: string | null;
  members_count: number;
  tools_count: number;
  notebooks_count: number;
  has_wallet: boolean;
  last_activity_at: Date;
  keys_version: string;
  created_at: Date;
  updated_at: Date;
}

const PROJECT_COLUMNS = `p.id, p.organization_id, p.name, p.is_default, p.created_by,
  p.members_count, p.tools_count, p.notebooks_count, p.has_wallet, p.last_activity_at,
  p.keys_version, p.created_at, p.updated_at`;

function toProject(r: RawProjectRow): Project {
  return Object.assign(new Project(), {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    isDefault: r.is_default,
    createdBy: r.created_by,
    membersCount: r.members_count,
    toolsCount: r.tools_count,
    notebooksCount: r.notebooks_count,
    hasWallet: r.has_wallet,
    lastActivityAt: r.last_activity_at,
    keysVersion: Number(r.keys_version),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
}

/**
 * Rows of an `UPDATE … RETURNING` through `manager.query`: TypeORM's PostgreSQL driver answers
 * UPDATE and DELETE with `[rows, affectedCount]`, SELECT and INSERT with `rows`.
 */
function returned<T>(result: unknown): T[] {
  const value = result as unknown[];
  return (Array.isArray(value[0]) ? value[0] : value) as T[];
}

/** Projects: the only code that reads or writes `project`. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly txHost: TxHost) {}

  async insert(
    project: Pick<Project, 'organizationId' | 'name' | 'isDefault' | 'createdBy'>,
  ): Promise<Project> {
    const manager = activeTransaction(this.txHost);
    return manager.save(manager.create(Project, project));
  }

  findById(id: number): Promise<Project | null> {
    const manager = this.txHost.tx;
    return manager.findOneBy(Project, { id });
  }

  /** Whether the organization has a default project (call under the organization lock). */
  async hasDefault(organizationId: number): Promise<boolean> {
    const manager = activeTransaction(this.txHost);
    return manager.existsBy(Project, { organizationId, isDefault: true });
  }

  async rename(id: number, name: string): Promise<Project> {
    const manager = activeTransaction(this.txHost);
    await manager.update(Project, { id }, { name, lastActivityAt: () => 'now()' });
    return manager.findOneByOrFail(Project, { id });
  }

  async delete(id: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.delete(Project, { id });
  }

  /** Makes the oldest remaining project of the organization its default; returns it, if any. */
  async promoteOldestToDefault(organizationId: number): Promise<Project | null> {
    const manager = activeTransaction(this.txHost);
    const rows = returned<RawProjectRow>(
      await manager.query(
        `UPDATE project p SET is_default = true
       WHERE p.id = (SELECT id FROM project WHERE organization_id = $1
                     ORDER BY created_at, id LIMIT 1)
       RETURNING ${PROJECT_COLUMNS}`,
        [organizationId],
      ),
    );
    return rows[0] ? toProject(rows[0]) : null;
  }

  /**
   * Next `org.project.keys.changed` version of a project. The update row-locks the project
   * until commit, so concurrent key changes publish in version order. Also touches activity.
   */
  async bumpKeysVersion(id: number): Promise<number> {
    const manager = activeTransaction(this.txHost);
    const rows = returned<{ keys_version: string }>(
      await manager.query(
        `UPDATE project SET keys_version = keys_version + 1, last_activity_at = now()
         WHERE id = $1 RETURNING keys_version`,
        [id],
      ),
    );
    return Number(rows[0].keys_version);
  }

  /** Recomputes `members_count` (explicit members with access) and touches activity. */
  async recountMembers(id: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query(
      `UPDATE project SET last_activity_at = now(), members_count =
         (SELECT count(*) FROM project_membership WHERE project_id = $1 AND NOT access_denied)
       WHERE id = $1`,
      [id],
    );
  }

  /**
   * Recomputes `tools_count` (the project's Sentinel Passes) and touches activity; called in
   * the transaction of every pass creation and deletion.
   */
  async recountTools(id: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query(
      `UPDATE project SET last_activity_at = now(), tools_count =
         (SELECT count(*) FROM sentinel_pass WHERE project_id = $1)
       WHERE id = $1`,
      [id],
    );
  }

  /** `last_activity_at = now()`: every write to a project or what hangs off it. */
  async touch(id: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query('UPDATE project SET last_activity_at = now() WHERE id = $1', [id]);
  }

  /** `has_wallet` from `wallet.wallet.created`; false when no such project (any more). */
  async markHasWallet(id: number): Promise<boolean> {
    const manager = activeTransaction(this.txHost);
    const rows = returned<{ id: number }>(
      await manager.query('UPDATE project SET has_wallet = true WHERE id = $1 RETURNING id', [id]),
    );
    return rows.length > 0;
  }

  /**
   * Projects of several organizations the user can see — as organization OWNER/ADMIN, or as an
   * explicit project member whose access is not denied — with the standing behind the
   * effective role (one query).
   */
  async findVisibleInOrganizations(
    userId: string,
    organizationIds: number[],
  ): Promise<ProjectStandingRow[]> {
    if (organizationIds.length === 0) return [];
    const rows: (RawProjectRow & {
      org_role: Role | null;
      project_role: Role | null;
      access_denied: boolean | null;
    })[] = await this.txHost.tx.query(
      `SELECT ${PROJECT_COLUMNS}, om.role AS org_role, pm.role AS project_role, pm.access_denied
       FROM project p
       LEFT JOIN organization_membership om
         ON om.organization_id = p.organization_id AND om.user_id = $2
       LEFT JOIN project_membership pm ON pm.project_id = p.id AND pm.user_id = $2
       WHERE p.organization_id = ANY($1::int[])
         AND (om.role IN ('OWNER', 'ADMIN') OR (pm.user_id IS NOT NULL AND NOT pm.access_denied))
       ORDER BY p.organization_id, lower(p.name) COLLATE "C", p.id`,
      [organizationIds, userId],
    );
    return rows.map((r) => ({
      project: toProject(r),
      organizationRole: r.org_role,
      projectRole: r.project_role,
      accessDenied: r.access_denied ?? false,
    }));
  }

  /**
   * `GET …/projects`: one query, every filter and the order in SQL over indexed columns
   * (docs/org.md § Project list). Only projects where the caller's effective role is not null.
   * @param organizationRole the caller's organization role (null for project-only members)
   */
  async list(
    organizationId: number,
    userId: string,
    organizationRole: Role | null,
    filter: ProjectListFilter,
  ): Promise<{ project: Project; role: Role }[]> {
    const params: unknown[] = [organizationId, userId, organizationRole];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const role = effectiveRoleSql('$3::text');
    const where = ['p.organization_id = $1', `${role} IS NOT NULL`];
    if (filter.userRoles) where.push(`${role} = ANY(${bind(filter.userRoles)}::text[])`);
    if (filter.hasWallet !== undefined) where.push(`p.has_wallet = ${bind(filter.hasWallet)}`);
    if (filter.hasTools !== undefined) {
      where.push(`(p.tools_count > 0) = ${bind(filter.hasTools)}`);
    }
    if (filter.hasNotebooks !== undefined) {
      where.push(`(p.notebooks_count > 0) = ${bind(filter.hasNotebooks)}`);
    }
    if (filter.minMembers !== undefined) {
      where.push(`p.members_count >= ${bind(filter.minMembers)}`);
    }
    if (filter.maxMembers !== undefined) {
      where.push(`p.members_count <= ${bind(filter.maxMembers)}`);
    }
    if (filter.search) {
      where.push(`p.name ILIKE ${bind(`%${escapeLike(filter.search)}%`)} ESCAPE '\\'`);
    }
    if (filter.createdAfter) where.push(`p.created_at > ${bind(filter.createdAfter)}`);
    if (filter.createdBefore) where.push(`p.created_at < ${bind(filter.createdBefore)}`);
    const descending = filter.sort.startsWith('-');
    const sort = PROJECT_SORT_SQL[filter.sort.replace(/^-/, '') as ProjectSortKey];
    const direction = (sort.natural === 'ASC') !== descending ? 'ASC' : 'DESC';
    const rows: (RawProjectRow & { caller_role: Role })[] = await this.txHost.tx.query(
      `SELECT ${PROJECT_COLUMNS}, ${role} AS caller_role
       FROM project p
       LEFT JOIN project_membership pm ON pm.project_id = p.id AND pm.user_id = $2
       WHERE ${where.join(' AND ')}
       ORDER BY ${sort.expr} ${direction}, p.id ASC`,
      params,
    );
    return rows.map((r) => ({ project: toProject(r), role: r.caller_role }));
  }
}

import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import {
  memberDirectorySql,
  toMemberDirectoryFields,
  type MemberDirectoryFields,
  type RawMemberDirectoryFields,
} from './member-directory.js';
import { ProjectMembership } from './project-membership.entity.js';

/** A project member with their organization role and directory entry. */
export interface ProjectMemberRow extends MemberDirectoryFields {
  projectId: number;
  organizationId: number;
  userId: string;
  role: Role;
  accessDenied: boolean;
  organizationRole: Role | null;
  createdAt: Date;
  updatedAt: Date;
}

interface RawProjectMemberRow extends RawMemberDirectoryFields {
  project_id: number;
  organization_id: number;
  user_id: string;
  role: Role;
  access_denied: boolean;
  organization_role: Role | null;
  created_at: Date;
  updated_at: Date;
}

const directory = memberDirectorySql('pm');
const SELECT = `SELECT pm.project_id, pm.organization_id, pm.user_id, pm.role, pm.access_denied,
    pm.created_at, pm.updated_at, om.role AS organization_role,
    ${directory.columns}
  FROM project_membership pm
  LEFT JOIN organization_membership om
    ON om.organization_id = pm.organization_id AND om.user_id = pm.user_id
  ${directory.join}`;

function toRow(r: RawProjectMemberRow): ProjectMemberRow {
  return {
    projectId: r.project_id,
    organizationId: r.organization_id,
    userId: r.user_id,
    role: r.role,
    accessDenied: r.access_denied,
    organizationRole: r.organization_role,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...toMemberDirectoryFields(r),
  };
}

/** Project memberships: the only code that reads or writes `project_membership`. */
@Injectable()
export class ProjectMembersRepository {
  constructor(private readonly txHost: TxHost) {}

  /** Members of a project (denied ones included), oldest first. */
  async findByProject(projectId: number): Promise<ProjectMemberRow[]> {
    const rows: RawProjectMemberRow[] = await this.txHost.tx.query(
      `${SELECT} WHERE pm.project_id = $1 ORDER BY pm.created_at, pm.user_id`,
      [projectId],
    );
    return rows.map(toRow);
  }

  async findMember(projectId: number, userId: string): Promise<ProjectMemberRow | null> {
    const manager = this.txHost.tx;
    const rows: RawProjectMemberRow[] = await manager.query(
      `${SELECT} WHERE pm.project_id = $1 AND pm.user_id = $2`,
      [projectId, userId],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  find(projectId: number, userId: string) {
    const manager = activeTransaction(this.txHost);
    return manager.findOneBy(ProjectMembership, { projectId, userId });
  }

  /** A user's memberships in the projects of one organization. */
  findByOrganizationUser(organizationId: number, userId: string) {
    const manager = activeTransaction(this.txHost);
    return manager.findBy(ProjectMembership, { organizationId, userId });
  }

  /** Every membership of one project. */
  findAllOfProject(projectId: number) {
    const manager = activeTransaction(this.txHost);
    return manager.findBy(ProjectMembership, { projectId });
  }

  async insert(
    membership: Pick<
      ProjectMembership,
      'projectId' | 'organizationId' | 'userId' | 'role' | 'accessDenied' | 'version'
    >,
  ): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.insert(ProjectMembership, membership);
  }

  async update(
    projectId: number,
    userId: string,
    changes: Partial<Pick<ProjectMembership, 'role' | 'accessDenied' | 'version'>>,
  ): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.update(ProjectMembership, { projectId, userId }, changes);
  }

  async delete(projectId: number, userId: string): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.delete(ProjectMembership, { projectId, userId });
  }
}

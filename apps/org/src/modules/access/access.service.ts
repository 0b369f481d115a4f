import { Injectable } from '@nestjs/common';
import {
  effectiveProjectRole,
  organizationCan,
  projectCan,
  type OrganizationPermission,
  type ProjectPermission,
  type Role,
} from '@wp/contracts';
import type { Principal } from '@wp/security';
import type { EntityManager } from 'typeorm';
import type { Organization } from '../organizations/organization.entity.js';
import type { Project } from '../projects/project.entity.js';
import { ProjectsRepository } from '../projects/projects.repository.js';
import {
  OrganizationNotFoundError,
  PermissionDeniedError,
  ProjectNotFoundError,
} from './access.errors.js';
import { AccessRepository } from './access.repository.js';

/** The caller's standing in one organization, resolved from the database on every request. */
export interface OrganizationAccess {
  organization: Organization;
  userId: string;
  /** The caller's organization role; null for a project-only member. */
  role: Role | null;
}

/** The caller's standing in one project. */
export interface ProjectAccess extends OrganizationAccess {
  project: Project;
  /** Explicit project role (kept while access is denied), or null. */
  projectRole: Role | null;
  accessDenied: boolean;
  /** `effectiveProjectRole` of the permission table: what the caller may do here. */
  effectiveRole: Role;
}

interface AccessOptions {
  manager?: EntityManager;
  /** Row-lock the organization for the rest of the transaction (commands). */
  lock?: boolean;
}

/**
 * Authorization (ARCHITECTURE § 3): permissions are resolved per request from the database (no
 * token claims, no cache), so a role change or a denied access takes effect on the very next
 * request. Whether a caller may do something is asked of the single permission table in
 * `@wp/contracts`, the same table `meta.can` is computed from.
 *
 * Visibility: an organization is visible to its members and to project-only members (a project
 * membership with access); anyone else gets 404, exactly as for an organization that does not
 * exist. A project is visible when the caller's effective role there is not null (denied
 * access hides it): otherwise 404.
 */
@Injectable()
export class AccessService {
  constructor(
    private readonly access: AccessRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  /**
   * The caller's access to an organization.
   * @throws OrganizationNotFoundError 404 when it does not exist or is not visible to the caller
   */
  async organization(
    principal: Principal,
    organizationId: number,
    options: AccessOptions = {},
  ): Promise<OrganizationAccess> {
    const row = await this.access.findOrganizationAccess(organizationId, principal.id, options);
    if (!row || (row.role === null && !row.hasProjectAccess)) {
      throw new OrganizationNotFoundError();
    }
    return { organization: row.organization, userId: principal.id, role: row.role };
  }

  /**
   * {@link organization} plus a permission from the table.
   * @throws OrganizationNotFoundError 404; PermissionDeniedError 403 `FORBIDDEN`
   */
  async organizationWith(
    principal: Principal,
    organizationId: number,
    permission: OrganizationPermission,
    options: AccessOptions = {},
  ): Promise<OrganizationAccess & { role: Role }> {
    const access = await this.organization(principal, organizationId, options);
    requireOrganizationPermission(access, permission);
    return access as OrganizationAccess & { role: Role };
  }

  /**
   * The caller's access to a project of an organization.
   * @throws OrganizationNotFoundError 404 (organization not visible), ProjectNotFoundError 404
   *   (no such project there, or the caller's effective role is null, e.g. denied access)
   */
  async project(
    principal: Principal,
    organizationId: number,
    projectId: number,
    options: AccessOptions = {},
  ): Promise<ProjectAccess> {
    const organization = await this.organization(principal, organizationId, options);
    const standing = await this.access.findProjectStanding(
      organizationId,
      projectId,
      principal.id,
      options.manager,
    );
    const effectiveRole = effectiveProjectRole({
      organizationRole: organization.role,
      projectRole: standing.projectRole,
      accessDenied: standing.accessDenied,
    });
    if (standing.projectId === null || effectiveRole === null) throw new ProjectNotFoundError();
    const project = await this.projects.findById(projectId, options.manager);
    if (!project) throw new ProjectNotFoundError();
    return {
      ...organization,
      project,
      projectRole: standing.projectRole,
      accessDenied: standing.accessDenied,
      effectiveRole,
    };
  }

  /**
   * {@link project} plus a permission from the project table (checked on the effective role).
   * @throws 404 as {@link project}; PermissionDeniedError 403 `FORBIDDEN`
   */
  async projectWith(
    principal: Principal,
    organizationId: number,
    projectId: number,
    permission: ProjectPermission,
    options: AccessOptions = {},
  ): Promise<ProjectAccess> {
    const access = await this.project(principal, organizationId, projectId, options);
    requireProjectPermission(access, permission);
    return access;
  }
}

/** @throws PermissionDeniedError 403 `FORBIDDEN` when the caller's role lacks `permission`. */
export function requireOrganizationPermission(
  access: OrganizationAccess,
  permission: OrganizationPermission,
): void {
  if (!organizationCan(access.role, permission)) throw new PermissionDeniedError(permission);
}

/** @throws PermissionDeniedError 403 `FORBIDDEN` when the effective project role lacks it. */
export function requireProjectPermission(
  access: ProjectAccess,
  permission: ProjectPermission,
): void {
  if (!projectCan(access.effectiveRole, permission)) throw new PermissionDeniedError(permission);
}

import { Injectable } from '@nestjs/common';
import {
  agentCan,
  effectiveProjectRole,
  organizationCan,
  projectCan,
  type OrganizationPermission,
  type ProjectPermission,
  type Role,
} from '@wp/contracts';
import { AgentForbiddenError, sessionHasTwoFactors, type Principal } from '@wp/security';
import type { Organization } from '../tenants/organization.entity.js';
import type { Project } from '../tenants/project.entity.js';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import {
  OrganizationNotFoundError,
  OrganizationRequiresTwoFactorError,
  PermissionDeniedError,
  ProjectNotFoundError,
} from './access.errors.js';
import { AccessRepository } from './access.repository.js';

/**
 * What a Sentinel Pass agent token may do in the one project it is confined to
 * (docs/api.md § Sentinel Passes; docs/org.md § Agent tokens): its pass's `permissions`, read
 * through `agentCan` of `@wp/contracts` onto the same project permission table users are checked
 * against.
 */
export interface AgentGrant {
  /** The pass id (the agent's user id, the token's `sub`). */
  passId: string;
  organizationId: number;
  projectId: number;
  /** The pass's agent permission names (`projects:read`, `wallets:debit`, …). */
  permissions: readonly string[];
}

/** The caller's standing in one organization, resolved from the database on every request. */
export interface OrganizationAccess {
  organization: Organization;
  userId: string;
  /** The caller's organization role; null for a project-only member and for agents. */
  role: Role | null;
  /** Set when the caller is an agent token: then `agentCan` decides, never a role. */
  agent: AgentGrant | null;
}

/** The caller's standing in one project. */
export interface ProjectAccess extends OrganizationAccess {
  project: Project;
  /** Explicit project role (kept while access is denied), or null. */
  projectRole: Role | null;
  accessDenied: boolean;
  /**
   * `effectiveProjectRole` of the permission table: what the caller may do here. Never null for
   * a user (a user without one gets 404); always null for an agent (see `agent`).
   */
  effectiveRole: Role | null;
}

interface AccessOptions {
  /**
   * Row-lock the organization for the rest of the transaction active in the async context
   * (commands; throws without one, docs/org.md § Transactions).
   */
  lock?: boolean;
  /**
   * Let a member without two-factor through an organization that requires it: only for
   * leaving it (docs/org.md § Two-factor policy).
   */
  exemptFromTwoFactorPolicy?: boolean;
}

/**
 * Authorization (docs/architecture.md § Identity and access): permissions are resolved per request
 * from the database (no token claims, no cache), so a role change or a denied access takes effect
 * on the very next request. Whether a caller may do something is asked of the single permission
 * table in `@wp/contracts`, the same table `meta.can` is computed from.
 *
 * Visibility: an organization is visible to its members and to project-only members (a project
 * membership with access); anyone else gets 404, exactly as for an organization that does not
 * exist. A project is visible when the caller's effective role there is not null (denied
 * access hides it): otherwise 404.
 *
 * Agents (Sentinel Pass tokens, `principal.agent`): only their own organization and project
 * exist for them (anything else is 404, as for a stranger); there they hold an
 * {@link AgentGrant} instead of a role, and every permission check asks
 * `agentCan(permissions, permission)` (403 `AGENT_FORBIDDEN` when not granted). No
 * organization-level permission is ever granted to an agent. A route reaches this only when it
 * is opened with `@AgentAccess()` (docs/org.md § Agent tokens, "opting a route in").
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
   * @throws OrganizationRequiresTwoFactorError 403 `ORGANIZATION_REQUIRES_TWO_FACTOR` for a user
   *   whose account has two-factor off in an organization that requires it, unless the session
   *   was opened with two factors at once (`amr` has `mfa`: a user-verified passkey,
   *   docs/auth.md § Passkeys); agents are exempt (Sentinel Passes are credentials, not accounts)
   */
  async organization(
    principal: Principal,
    organizationId: number,
    options: AccessOptions = {},
  ): Promise<OrganizationAccess> {
    const agent = agentGrantOf(principal);
    if (principal.type === 'agent' && agent?.organizationId !== organizationId) {
      throw new OrganizationNotFoundError();
    }
    const row = await this.access.findOrganizationAccess(organizationId, principal.id, options);
    if (!row || (!agent && row.role === null && !row.hasProjectAccess)) {
      throw new OrganizationNotFoundError();
    }
    if (
      principal.type === 'user' &&
      row.organization.requireTwoFactor &&
      !row.twoFactorEnabled &&
      !sessionHasTwoFactors(principal) &&
      !options.exemptFromTwoFactorPolicy
    ) {
      throw new OrganizationRequiresTwoFactorError();
    }
    return {
      organization: row.organization,
      userId: principal.id,
      role: agent ? null : row.role,
      agent,
    };
  }

  /**
   * {@link organization} plus a permission from the table.
   * @throws OrganizationNotFoundError 404; PermissionDeniedError 403 `FORBIDDEN`;
   *   AgentForbiddenError 403 `AGENT_FORBIDDEN` (agents hold no organization permission)
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
   * The caller's access to a project of an organization. An agent needs `project.read` here
   * (`projects:read`); routes that need another permission use {@link projectWith}.
   * @throws OrganizationNotFoundError 404 (organization not visible), ProjectNotFoundError 404
   *   (no such project there, or the caller's effective role is null, e.g. denied access, or
   *   not the agent's project); AgentForbiddenError 403 (agent without `projects:read`)
   */
  async project(
    principal: Principal,
    organizationId: number,
    projectId: number,
    options: AccessOptions = {},
  ): Promise<ProjectAccess> {
    const access = await this.resolveProject(principal, organizationId, projectId, options);
    if (access.agent) requireProjectPermission(access, 'project.read');
    return access;
  }

  /**
   * {@link project} plus a permission from the project table (checked on the effective role,
   * or for an agent on its grant).
   * @throws 404 as {@link project}; PermissionDeniedError 403 `FORBIDDEN`;
   *   AgentForbiddenError 403 `AGENT_FORBIDDEN`
   */
  async projectWith(
    principal: Principal,
    organizationId: number,
    projectId: number,
    permission: ProjectPermission,
    options: AccessOptions = {},
  ): Promise<ProjectAccess> {
    const access = await this.resolveProject(principal, organizationId, projectId, options);
    requireProjectPermission(access, permission);
    return access;
  }

  private async resolveProject(
    principal: Principal,
    organizationId: number,
    projectId: number,
    options: AccessOptions,
  ): Promise<ProjectAccess> {
    const organization = await this.organization(principal, organizationId, options);
    if (organization.agent) {
      if (organization.agent.projectId !== projectId) throw new ProjectNotFoundError();
      const project = await this.projects.findById(projectId);
      if (!project || project.organizationId !== organizationId) throw new ProjectNotFoundError();
      return {
        ...organization,
        project,
        projectRole: null,
        accessDenied: false,
        effectiveRole: null,
      };
    }
    const standing = await this.access.findProjectStanding(organizationId, projectId, principal.id);
    const effectiveRole = effectiveProjectRole({
      organizationRole: organization.role,
      projectRole: standing.projectRole,
      accessDenied: standing.accessDenied,
    });
    if (standing.projectId === null || effectiveRole === null) throw new ProjectNotFoundError();
    const project = await this.projects.findById(projectId);
    if (!project) throw new ProjectNotFoundError();
    return {
      ...organization,
      project,
      projectRole: standing.projectRole,
      accessDenied: standing.accessDenied,
      effectiveRole,
    };
  }
}

/**
 * @throws PermissionDeniedError 403 `FORBIDDEN` when the caller's role lacks `permission`;
 *   AgentForbiddenError 403 `AGENT_FORBIDDEN` for an agent (no organization permission)
 */
export function requireOrganizationPermission(
  access: OrganizationAccess,
  permission: OrganizationPermission,
): void {
  if (access.agent) throw new AgentForbiddenError(`Agent tokens do not grant ${permission}.`);
  if (!organizationCan(access.role, permission)) throw new PermissionDeniedError(permission);
}

/**
 * @throws PermissionDeniedError 403 `FORBIDDEN` when the effective project role lacks it;
 *   AgentForbiddenError 403 `AGENT_FORBIDDEN` when an agent's pass does not grant it
 */
export function requireProjectPermission(
  access: ProjectAccess,
  permission: ProjectPermission,
): void {
  if (access.agent) {
    if (!agentCan(access.agent.permissions, permission)) {
      throw new AgentForbiddenError(`This Sentinel Pass does not grant ${permission}.`);
    }
    return;
  }
  if (!projectCan(access.effectiveRole, permission)) throw new PermissionDeniedError(permission);
}

/**
 * The effective role behind a project access, for the rules between roles (who may grant what,
 * the last owner). Agents hold no role, so a command that needs one refuses them.
 * @throws AgentForbiddenError 403 `AGENT_FORBIDDEN` for an agent
 */
export function actingRole(access: ProjectAccess): Role {
  if (access.effectiveRole === null) throw new AgentForbiddenError();
  return access.effectiveRole;
}

/** The grant of an agent principal bound to a project, else null (users, unbound tokens). */
function agentGrantOf(principal: Principal): AgentGrant | null {
  if (principal.type !== 'agent' || !principal.agent) return null;
  return {
    passId: principal.id,
    organizationId: principal.agent.organizationId,
    projectId: principal.agent.projectId,
    permissions: principal.agent.permissions,
  };
}

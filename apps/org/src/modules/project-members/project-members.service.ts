import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { AuditAction, Role } from '@wp/contracts';
import type { Principal } from '@wp/security';
import {
  AccessService,
  actingRole,
  requireOrganizationPermission,
  type ProjectAccess,
} from '../access/access.service.js';
import { memberAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { UserLookup } from '../identity/user-lookup.js';
import type { Invitation } from '../invitations/invitation.entity.js';
import { InvitationsService } from '../invitations/invitations.service.js';
import {
  AlreadyMemberError,
  CannotChangeOwnRoleError,
  MemberNotFoundError,
} from '../memberships/membership.errors.js';
import { OrganizationMembersRepository } from '../memberships/organization-members.repository.js';
import { OrganizationMemberships } from '../memberships/organization-memberships.js';
import {
  ProjectMembersRepository,
  type ProjectMemberRow,
} from '../memberships/project-members.repository.js';
import { ProjectMemberships } from '../memberships/project-memberships.js';
import { assertMayGrant, assertRoleChangeAllowed } from '../memberships/role-rules.js';
import { DirectoryRepository } from '../users/directory.repository.js';
import type { ProjectGrant } from '../memberships/project-grant.js';
import {
  AccessAlreadyDeniedError,
  AccessNotDeniedError,
  CannotDenyOrganizationAdminError,
} from './project-members.errors.js';

export type AddProjectMemberResult =
  | { kind: 'member_added'; member: ProjectMemberRow }
  | { kind: 'invitation_sent'; invitation: Invitation };

/**
 * Project members and access (docs/api.md § Projects: users, add_user, members/{userId}/role,
 * remove_user, deny_access, restore_access; States and transitions, Project access). Managing
 * needs `project.manageMembers` (effective project ADMIN or OWNER); the role codes are those of
 * organizations. Every change runs under the organization lock and goes through
 * `ProjectMemberships` (event + members count).
 */
@Injectable()
export class ProjectMembersService {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly members: ProjectMembersRepository,
    private readonly memberships: ProjectMemberships,
    private readonly organizationMembers: OrganizationMembersRepository,
    private readonly organizationMemberships: OrganizationMemberships,
    private readonly invitations: InvitationsService,
    private readonly users: UserLookup,
    private readonly directory: DirectoryRepository,
    private readonly audit: AuditTrail,
  ) {}

  /** `GET P/{id}/users`: explicit members, denied ones included (any member of the project). */
  async list(
    principal: Principal,
    organizationId: number,
    projectId: number,
  ): Promise<ProjectMemberRow[]> {
    await this.access.projectWith(principal, organizationId, projectId, 'project.read');
    return this.members.findByProject(projectId);
  }

  /**
   * `POST P/{id}/add_user`: an existing account (asked of auth) becomes a project member with
   * `role` — and, unless project-only, an organization member with `organization_role` when not
   * one already (an existing organization role is left as it is). An unknown email gets a
   * project invitation instead.
   * @throws 404, 403 `FORBIDDEN` (no `project.manageMembers`; or no
   *   `organization.manageMembers` when an organization membership would be created),
   *   403 `INSUFFICIENT_PERMISSIONS`, 409 `ALREADY_MEMBER`, 409 `INVITATION_ALREADY_PENDING`
   */
  async add(
    principal: Principal,
    organizationId: number,
    projectId: number,
    email: string,
    grant: ProjectGrant,
  ): Promise<AddProjectMemberResult> {
    const address = email.trim();
    const first = await this.access.projectWith(
      principal,
      organizationId,
      projectId,
      'project.manageMembers',
    );
    assertMayGrant(actingRole(first), grant.role);
    const user = await this.users.findByEmail(address);
    return this.txHost.withTransaction(async (): Promise<AddProjectMemberResult> => {
      const access = await this.manageMembers(principal, organizationId, projectId);
      assertMayGrant(actingRole(access), grant.role);
      if (!user) {
        if (grant.organizationRole) requireOrganizationGrant(access, grant.organizationRole);
        const invitation = await this.invitations.create(
          principal,
          actingRole(access),
          { organizationId, projectId },
          address,
          {
            orgRole: grant.organizationRole,
            projectRole: grant.role,
            projectOnly: grant.projectOnly,
          },
        );
        return { kind: 'invitation_sent', invitation };
      }
      if (await this.members.find(projectId, user.userId)) {
        throw new AlreadyMemberError('project');
      }
      if (grant.organizationRole) {
        await this.ensureOrganizationMember(principal, access, user.userId, grant.organizationRole);
      }
      await this.directory.insertIfAbsent(user);
      await this.memberships.add({ organizationId, projectId, userId: user.userId }, grant.role);
      const member = (await this.members.findMember(projectId, user.userId))!;
      await this.note(principal, 'project_member.added', member);
      return { kind: 'member_added', member };
    });
  }

  /**
   * `PATCH P/{id}/members/{userId}/role`. A denied member's stored role changes (it applies on
   * restore); access stays denied.
   * @throws 404, 403 `FORBIDDEN`, 422 `CANNOT_CHANGE_OWN_ROLE`, 403 `INSUFFICIENT_PERMISSIONS`
   */
  async changeRole(
    principal: Principal,
    organizationId: number,
    projectId: number,
    userId: string,
    role: Role,
  ): Promise<ProjectMemberRow> {
    return this.txHost.withTransaction(async () => {
      const access = await this.manageMembers(principal, organizationId, projectId);
      const target = await this.target(projectId, userId);
      assertRoleChangeAllowed({
        actorId: principal.id,
        actorRole: actingRole(access),
        targetId: userId,
        currentRole: target.role,
        newRole: role,
      });
      if (target.role !== role) {
        await this.memberships.set(
          { organizationId, projectId, userId },
          { role, accessDenied: target.accessDenied },
        );
      }
      const member = (await this.members.findMember(projectId, userId))!;
      if (target.role !== role) {
        await this.note(principal, 'project_member.role_changed', member, target.role);
      }
      return member;
    });
  }

  /**
   * `DELETE P/{id}/remove_user/{userId}`. A member may remove themselves (leave the project).
   * @throws 404, 403 `FORBIDDEN`, 403 `INSUFFICIENT_PERMISSIONS`
   */
  async remove(
    principal: Principal,
    organizationId: number,
    projectId: number,
    userId: string,
  ): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const leaving = userId === principal.id;
      const access = leaving
        ? await this.access.project(principal, organizationId, projectId, { lock: true })
        : await this.manageMembers(principal, organizationId, projectId);
      const target = await this.target(projectId, userId);
      if (!leaving) {
        assertRoleChangeAllowed({
          actorId: principal.id,
          actorRole: actingRole(access),
          targetId: userId,
          currentRole: target.role,
          newRole: null,
        });
      }
      await this.memberships.remove({ organizationId, projectId, userId });
      await this.audit.record(
        principal,
        memberAudit(
          'project_member.removed',
          { organizationId, projectId },
          { id: userId },
          { previousRole: target.role },
        ),
      );
    });
  }

  /**
   * `POST P/{id}/deny_access/{userId}`: user has access → access denied. The project
   * membership (and role) and the organization membership are kept; the project disappears
   * for the user on their next request. Checked in this order (docs/org.md § Role rules and
   * statuses, Access): one's own access; an organization OWNER or ADMIN — whose access to every
   * project comes with their organization role, explicit project member or not — is 422
   * `CANNOT_DENY_ORGANIZATION_ADMIN` whoever asks; then the target's membership, the role
   * ceiling and the state.
   * @throws 404, 403 `FORBIDDEN`, 422 `CANNOT_CHANGE_OWN_ROLE`,
   *   422 `CANNOT_DENY_ORGANIZATION_ADMIN`, 404 `MEMBER_NOT_FOUND`,
   *   403 `INSUFFICIENT_PERMISSIONS`, 409 `ACCESS_ALREADY_DENIED`
   */
  async deny(
    principal: Principal,
    organizationId: number,
    projectId: number,
    userId: string,
  ): Promise<ProjectMemberRow> {
    return this.txHost.withTransaction(async () => {
      const access = await this.manageMembers(principal, organizationId, projectId);
      if (userId === principal.id) throw new CannotChangeOwnRoleError();
      const orgRole = (await this.organizationMembers.find(organizationId, userId))?.role;
      if (orgRole === 'OWNER' || orgRole === 'ADMIN') throw new CannotDenyOrganizationAdminError();
      const target = await this.target(projectId, userId);
      assertRoleChangeAllowed({
        actorId: principal.id,
        actorRole: actingRole(access),
        targetId: userId,
        currentRole: target.role,
        newRole: null,
      });
      if (target.accessDenied) throw new AccessAlreadyDeniedError();
      await this.memberships.set(
        { organizationId, projectId, userId },
        { role: target.role, accessDenied: true },
      );
      const member = (await this.members.findMember(projectId, userId))!;
      await this.note(principal, 'project_access.denied', member);
      return member;
    });
  }

  /**
   * `POST P/{id}/restore_access/{userId}`: access denied → access restored, with the previous
   * role unless `role` is given.
   * @throws 404, 403, 422 `CANNOT_CHANGE_OWN_ROLE`, 403 `INSUFFICIENT_PERMISSIONS`,
   *   409 `ACCESS_NOT_DENIED`
   */
  async restore(
    // jscpd:ignore-start: change_role and restore_access run the same checks on one target; restore_access also takes the role kept while access was denied.
    principal: Principal,
    organizationId: number,
    projectId: number,
    userId: string,
    role: Role | undefined,
  ): Promise<ProjectMemberRow> {
    return this.txHost.withTransaction(async () => {
      const access = await this.manageMembers(principal, organizationId, projectId);
      const target = await this.target(projectId, userId);
      const next = role ?? target.role;
      assertRoleChangeAllowed({
        // jscpd:ignore-end
        actorId: principal.id,
        actorRole: actingRole(access),
        targetId: userId,
        currentRole: target.role,
        newRole: next,
      });
      if (!target.accessDenied) throw new AccessNotDeniedError();
      await this.memberships.set(
        { organizationId, projectId, userId },
        { role: next, accessDenied: false },
      );
      const member = (await this.members.findMember(projectId, userId))!;
      await this.note(principal, 'project_access.restored', member, target.role);
      return member;
    });
  }

  /** Records a project membership command in the audit log (same transaction). */
  private note(
    principal: Principal,
    action: AuditAction,
    member: ProjectMemberRow,
    previousRole?: Role | null,
  ): Promise<void> {
    return this.audit.record(
      principal,
      memberAudit(
        action,
        member,
        { id: member.userId, email: member.email },
        { role: member.role, ...(previousRole !== undefined ? { previousRole } : {}) },
      ),
    );
  }

  private manageMembers(
    principal: Principal,
    organizationId: number,
    projectId: number,
  ): Promise<ProjectAccess> {
    return this.access.projectWith(principal, organizationId, projectId, 'project.manageMembers', {
      lock: true,
    });
  }

  private async target(projectId: number, userId: string) {
    const target = await this.members.find(projectId, userId);
    if (!target) throw new MemberNotFoundError();
    return target;
  }

  /** Adds the organization membership a non-project-only grant implies, when missing. */
  private async ensureOrganizationMember(
    principal: Principal,
    access: ProjectAccess,
    userId: string,
    role: Role,
  ): Promise<void> {
    const organizationId = access.organization.id;
    if (await this.organizationMembers.find(organizationId, userId)) return;
    requireOrganizationGrant(access, role);
    await this.organizationMemberships.add({ organizationId, userId }, role);
    await this.audit.record(
      principal,
      memberAudit('member.added', { organizationId }, { id: userId }, { role }),
    );
  }
}

/**
 * Granting an organization role from a project endpoint needs `organization.manageMembers` and
 * the role ceiling at the organization level.
 */
export function requireOrganizationGrant(access: ProjectAccess, role: Role): void {
  requireOrganizationPermission(access, 'organization.manageMembers');
  assertMayGrant(access.role!, role);
}

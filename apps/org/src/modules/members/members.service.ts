import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import type { Principal } from '@wp/security';
import { AccessService, requireOrganizationPermission } from '../access/access.service.js';
import { memberAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { UserLookup } from '../identity/user-lookup.js';
import type { Invitation } from '../invitations/invitation.entity.js';
import { InvitationsService } from '../invitations/invitations.service.js';
import { AlreadyMemberError, MemberNotFoundError } from '../memberships/membership.errors.js';
import {
  OrganizationMembersRepository,
  type MemberRow,
} from '../memberships/organization-members.repository.js';
import { OrganizationMemberships } from '../memberships/organization-memberships.js';
import { assertMayGrant, assertRoleChangeAllowed } from '../memberships/role-rules.js';
import { DirectoryRepository } from '../users/directory.repository.js';
import { MemberCleanup } from './member-cleanup.js';

export type AddMemberResult =
  { kind: 'member_added'; member: MemberRow } | { kind: 'invitation_sent'; invitation: Invitation };

/**
 * Organization members (docs/api.md § Organizations: users, add_user, members/{userId}/role,
 * remove_user; docs/api.md § Errors for the role codes). Every change runs under the organization
 * row lock and publishes `org.membership.changed`.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly members: OrganizationMembersRepository,
    private readonly memberships: OrganizationMemberships,
    private readonly invitations: InvitationsService,
    private readonly users: UserLookup,
    private readonly directory: DirectoryRepository,
    private readonly cleanup: MemberCleanup,
    private readonly audit: AuditTrail,
  ) {}

  /** `GET /organizations/{id}/users`: every member with their role (any member may look). */
  async list(principal: Principal, organizationId: number): Promise<MemberRow[]> {
    await this.access.organizationWith(principal, organizationId, 'organization.read');
    return this.members.findByOrganizations([organizationId]);
  }

  /**
   * `POST /organizations/{id}/add_user`: an existing account (asked of auth synchronously)
   * becomes a member with `role`; an unknown email gets an invitation mailed instead.
   * @throws 404, 403 `FORBIDDEN`, 403 `INSUFFICIENT_PERMISSIONS` (role above the caller's),
   *   409 `ALREADY_MEMBER`, 409 `INVITATION_ALREADY_PENDING`
   */
  async add(
    principal: Principal,
    organizationId: number,
    email: string,
    role: Role,
  ): Promise<AddMemberResult> {
    const address = email.trim();
    const actor = await this.access.organizationWith(
      principal,
      organizationId,
      'organization.manageMembers',
    );
    assertMayGrant(actor.role, role);
    const user = await this.users.findByEmail(address);
    return this.txHost.withTransaction(async (): Promise<AddMemberResult> => {
      const locked = await this.access.organizationWith(
        principal,
        organizationId,
        'organization.manageMembers',
        { lock: true },
      );
      if (!user) {
        const invitation = await this.invitations.create(
          principal,
          locked.role,
          { organizationId, projectId: null },
          address,
          { orgRole: role, projectRole: null, projectOnly: false },
        );
        return { kind: 'invitation_sent', invitation };
      }
      assertMayGrant(locked.role, role);
      if (await this.members.find(organizationId, user.userId)) {
        throw new AlreadyMemberError('organization');
      }
      await this.directory.insertIfAbsent(user);
      const membership = await this.memberships.add({ organizationId, userId: user.userId }, role);
      await this.audit.record(
        principal,
        memberAudit(
          'member.added',
          { organizationId },
          { id: user.userId, email: user.email },
          { role },
        ),
      );
      return {
        kind: 'member_added',
        member: {
          ...membership,
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
        },
      };
    });
  }

  /**
   * `PATCH /organizations/{id}/members/{userId}/role`; the rules in the order of
   * `assertRoleChangeAllowed` (docs/org.md § Role rules and statuses).
   * @throws 404 (non-member caller, or target not a member), 403 `FORBIDDEN`,
   *   422 `CANNOT_CHANGE_OWN_ROLE`, 422 `INVALID_ROLE_TRANSITION` (the last OWNER, whoever
   *   asks), 403 `INSUFFICIENT_PERMISSIONS`
   */
  async changeRole(
    principal: Principal,
    organizationId: number,
    userId: string,
    role: Role,
  ): Promise<MemberRow> {
    return this.txHost.withTransaction(async () => {
      const actor = await this.access.organizationWith(
        principal,
        organizationId,
        'organization.manageMembers',
        { lock: true },
      );
      const target = await this.members.find(organizationId, userId);
      if (!target) throw new MemberNotFoundError();
      assertRoleChangeAllowed({
        actorId: principal.id,
        actorRole: actor.role,
        targetId: userId,
        currentRole: target.role,
        newRole: role,
        targetIsLastOwner: await this.isLastOwner(organizationId, target.role),
      });
      if (target.role !== role) {
        await this.memberships.setRole({ organizationId, userId }, role);
      }
      const member = (await this.members.findMember(organizationId, userId))!;
      if (target.role !== role) {
        await this.audit.record(
          principal,
          memberAudit(
            'member.role_changed',
            { organizationId },
            { id: userId, email: member.email },
            {
              role,
              previousRole: target.role,
            },
          ),
        );
      }
      return member;
    });
  }

  /**
   * `DELETE /organizations/{id}/remove_user/{userId}`: removes the member (and their project
   * memberships in this organization). A member may remove themselves (leave) without the
   * manage-members permission; the last OWNER can neither leave nor be removed.
   * @throws 404, 403 `FORBIDDEN`, 422 `INVALID_ROLE_TRANSITION` (the last OWNER, whoever asks),
   *   403 `INSUFFICIENT_PERMISSIONS`
   */
  async remove(principal: Principal, organizationId: number, userId: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const leaving = userId === principal.id;
      const actor = await this.access.organization(principal, organizationId, {
        lock: true,
        // Leaving stays possible for a member the two-factor policy shuts out.
        exemptFromTwoFactorPolicy: leaving,
      });
      if (!leaving) requireOrganizationPermission(actor, 'organization.manageMembers');
      const target = await this.members.find(organizationId, userId);
      if (!target) throw new MemberNotFoundError();
      assertRoleChangeAllowed(
        {
          actorId: principal.id,
          actorRole: actor.role ?? target.role,
          targetId: userId,
          currentRole: target.role,
          newRole: null,
          targetIsLastOwner: await this.isLastOwner(organizationId, target.role),
        },
        { allowSelf: leaving },
      );
      await this.memberships.remove({ organizationId, userId });
      await this.cleanup.afterOrganizationExit(organizationId, userId);
      await this.audit.record(
        principal,
        memberAudit(
          leaving ? 'member.left' : 'member.removed',
          { organizationId },
          { id: userId },
          {
            previousRole: target.role,
          },
        ),
      );
    });
  }

  /** The target holds OWNER and no one else does (read under the organization lock). */
  private async isLastOwner(organizationId: number, targetRole: Role): Promise<boolean> {
    return targetRole === 'OWNER' && (await this.members.countOwners(organizationId)) <= 1;
  }
}

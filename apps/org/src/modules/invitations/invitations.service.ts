import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import { emailKey } from '@wp/identity';
import type { Principal } from '@wp/security';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';
import {
  AccessService,
  actingRole,
  requireOrganizationPermission,
} from '../access/access.service.js';
import { invitationAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { UserLookup } from '../identity/user-lookup.js';
import { assertMayGrant } from '../memberships/role-rules.js';
import { DirectoryRepository } from '../users/directory.repository.js';
import { InvitationAcceptance } from './invitation-acceptance.js';
import { assertNoneRunning, assertPending, assertRespondable } from './invitation-rules.js';
import type { Invitation } from './invitation.entity.js';
import { InvitationMailer } from './invitation-mailer.js';
import { newInvitationToken } from './invitation-token.js';
import {
  InvitationNotFoundError,
  InvitationResendTooSoonError,
  RedirectToAddMemberError,
} from './invitations.errors.js';
import { InvitationsRepository, type InvitationWithNames } from './invitations.repository.js';
import { takeResendSlot } from './resend-budget.js';

/** Where an invitation leads: an organization (`projectId` null) or one of its projects. */
export interface InvitationScope {
  organizationId: number;
  projectId: number | null;
}

export interface InvitationGrant {
  /** Organization role on acceptance; null for project-only invitations. */
  orgRole: Role | null;
  /** Project role on acceptance (project invitations). */
  projectRole: Role | null;
  projectOnly: boolean;
}

/**
 * Resolves the caller's role at an invitation scope and checks the manage-members permission
 * (organization or project). Throws 404 for non-members and 403 `FORBIDDEN` without it.
 */
export type ScopeAuthorizer = (principal: Principal, scope: InvitationScope) => Promise<Role>;

/**
 * Invitations (docs/api.md § Organizations and docs/api.md § Projects, invitation endpoints; States
 * and transitions, Invitation rows). States: `pending` → `accepted` | `rejected` (by the invitee)
 * | `cancelled` (by an inviter); a pending invitation past `expiresAt` shows as `expired` and a
 * resend renews it. One transaction per command, with its `notify.requested` mail and
 * `org.membership.changed` events.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly txHost: TxHost,
    private readonly invitations: InvitationsRepository,
    private readonly mailer: InvitationMailer,
    private readonly acceptance: InvitationAcceptance,
    private readonly access: AccessService,
    private readonly users: UserLookup,
    private readonly directory: DirectoryRepository,
    private readonly audit: AuditTrail,
    @Inject(ORG_CONFIG) private readonly config: OrgConfig,
  ) {}

  /** Organization scope: `organization.manageMembers` (ADMIN or OWNER). */
  readonly organizationScope: ScopeAuthorizer = async (principal, scope) => {
    const access = await this.access.organizationWith(
      principal,
      scope.organizationId,
      'organization.manageMembers',
      { lock: true },
    );
    return access.role;
  };

  /**
   * Project scope: `project.manageMembers` (effective project ADMIN or OWNER); when the
   * invitation grants an organization role too, also `organization.manageMembers` and that role
   * within the caller's organization role.
   */
  projectScope(orgRole: Role | null): ScopeAuthorizer {
    return async (principal, scope) => {
      const access = await this.access.projectWith(
        principal,
        scope.organizationId,
        scope.projectId!,
        'project.manageMembers',
        { lock: true },
      );
      if (orgRole !== null) {
        requireOrganizationPermission(access, 'organization.manageMembers');
        assertMayGrant(access.role!, orgRole);
      }
      return actingRole(access);
    };
  }

  /**
   * `POST …/invitations`: mails an invitation. An email that already has an account (in any
   * spelling: docs/auth.md § Usernames) is 422
   * `redirect_to_add_member` (asked of auth synchronously, so a fresh account counts).
   * @throws 404, 403 `FORBIDDEN`, 403 `INSUFFICIENT_PERMISSIONS` (role above the caller's),
   *   422 `redirect_to_add_member`, 409 `INVITATION_ALREADY_PENDING`
   */
  async invite(
    principal: Principal,
    scope: InvitationScope,
    email: string,
    grant: InvitationGrant,
    authorize: ScopeAuthorizer,
  ): Promise<Invitation> {
    const address = email.trim();
    // Permission first (404/403 before anything about the email leaks), then ask auth outside
    // any transaction, then write under the organization lock.
    const actorRole = await this.txHost.withTransaction(() => authorize(principal, scope));
    assertMayGrant(actorRole, scope.projectId === null ? grant.orgRole : grant.projectRole);
    if (await this.users.findByEmail(address)) throw new RedirectToAddMemberError(address);
    return this.txHost.withTransaction(async () => {
      const role = await authorize(principal, scope);
      return this.create(principal, role, scope, address, grant);
    });
  }

  /**
   * Creates a pending invitation (or renews an expired one for the same email) and enqueues
   * its mail, in the caller's transaction; the caller holds the organization lock and has
   * checked the permission. Used by `invite` and by `add_user` for unknown emails. Kept as
   * typed; the same email is the same key (`emailKey`): `ＡＤＡ@…` and `ada@…` are one invitee.
   * @throws 403 `INSUFFICIENT_PERMISSIONS`, 409 `INVITATION_ALREADY_PENDING`
   */
  async create(
    principal: Principal,
    actorRole: Role,
    scope: InvitationScope,
    email: string,
    grant: InvitationGrant,
  ): Promise<Invitation> {
    assertMayGrant(actorRole, scope.projectId === null ? grant.orgRole : grant.projectRole);
    const key = emailKey(email) ?? email.trim().toLowerCase();
    const existing = await this.invitations.findPending(scope.organizationId, scope.projectId, key);
    const now = new Date();
    assertNoneRunning(existing, now);
    const { token, hash } = newInvitationToken();
    const fresh = {
      ...grant,
      tokenHash: hash,
      invitedBy: principal.id,
      expiresAt: this.expiryFrom(now),
      lastSentAt: now,
    };
    const invitation = existing
      ? await this.invitations.update(existing.id, { ...fresh, sendCount: existing.sendCount + 1 })
      : await this.invitations.insert(
          Object.assign(newInvitation(), {
            ...fresh,
            id: randomUUID(),
            organizationId: scope.organizationId,
            projectId: scope.projectId,
            email: email.trim(),
            emailKey: key,
            status: 'pending',
            sendCount: 1,
          }),
        );
    await this.mail(invitation, token, principal);
    await this.audit.record(principal, invitationAudit(invitation, 'invitation.created'));
    return invitation;
  }

  /**
   * `GET …/invitations`: pending invitations of the scope, expired ones included (shown as such).
   */
  async list(
    principal: Principal,
    scope: InvitationScope,
    authorize: ScopeAuthorizer,
  ): Promise<Invitation[]> {
    await this.txHost.withTransaction(() => authorize(principal, scope));
    return this.invitations.listPending(scope.organizationId, scope.projectId);
  }

  /**
   * `POST …/invitations/{id}/resend`: a new token and mail right away, expiry renewed — within
   * the invitation's resend budget (`INVITATION_RESEND_LIMIT` per
   * `INVITATION_RESEND_WINDOW_SECONDS`, kept in the locked invitation row, so it holds across
   * replicas and parallel requests).
   * @throws 404, 403, 409 `INVITATION_NOT_PENDING`, 429 `INVITATION_RESEND_TOO_SOON`
   */
  async resend(
    principal: Principal,
    scope: InvitationScope,
    invitationId: string,
    authorize: ScopeAuthorizer,
  ): Promise<Invitation> {
    return this.txHost.withTransaction(async () => {
      const { invitation } = await this.pendingInScope(principal, scope, invitationId, authorize);
      const now = new Date();
      const { INVITATION_RESEND_LIMIT: limit, INVITATION_RESEND_WINDOW_SECONDS: window } =
        this.config;
      const slot = takeResendSlot(invitation.resentAt, now, limit, window * 1000);
      if (!slot.granted) {
        throw new InvitationResendTooSoonError(slot.retryAfterSeconds, limit, window);
      }
      const { token, hash } = newInvitationToken();
      const renewed = await this.invitations.update(invitation.id, {
        tokenHash: hash,
        expiresAt: this.expiryFrom(now),
        lastSentAt: now,
        sendCount: invitation.sendCount + 1,
        resentAt: slot.resentAt,
      });
      await this.mail(renewed, token, principal);
      await this.audit.record(principal, invitationAudit(renewed, 'invitation.resent'));
      return renewed;
    });
  }

  /** `DELETE …/invitations/{id}`: cancels (state `cancelled`; the invitee can no longer accept). */
  async cancel(
    principal: Principal,
    scope: InvitationScope,
    invitationId: string,
    authorize: ScopeAuthorizer,
  ): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const { invitation } = await this.pendingInScope(principal, scope, invitationId, authorize);
      await this.invitations.update(invitation.id, { status: 'cancelled' });
      const entry = invitationAudit(invitation, 'invitation.cancelled');
      await this.audit.record(principal, entry);
    });
  }

  /**
   * `PATCH /organizations/{id}/invitations/{invitationId}`: changes `orgRole` of a pending
   * organization invitation (the mail is not sent again).
   */
  async changeOrganizationRole(
    principal: Principal,
    organizationId: number,
    invitationId: string,
    orgRole: Role,
  ): Promise<Invitation> {
    return this.txHost.withTransaction(async () => {
      const scope = { organizationId, projectId: null };
      const { invitation, actorRole } = await this.pendingInScope(
        principal,
        scope,
        invitationId,
        this.organizationScope,
      );
      assertMayGrant(actorRole, orgRole);
      const changed = await this.invitations.update(invitation.id, { orgRole });
      const entry = invitationAudit(changed, 'invitation.role_changed');
      await this.audit.record(principal, entry);
      return changed;
    });
  }

  /** `GET /me/pending_invitations`: unexpired pending invitations to the caller's email key. */
  async pendingFor(principal: Principal): Promise<InvitationWithNames[]> {
    const key = await this.callerEmailKey(principal);
    return key ? this.invitations.listPendingForEmail(key) : [];
  }

  /**
   * `POST /me/accept_invitation/{id}`: the invited user (account email of the invitation's key)
   * joins with the invited role(s).
   * @throws 404 (unknown, cancelled or someone else's), 409 `INVITATION_NOT_PENDING`,
   *   422 `INVITATION_EXPIRED`
   */
  async accept(principal: Principal, invitationId: string): Promise<Invitation> {
    return this.respond(principal, invitationId, 'accepted');
  }

  /** `DELETE /me/reject_invitation/{id}`: the invited user declines. */
  async reject(principal: Principal, invitationId: string): Promise<Invitation> {
    return this.respond(principal, invitationId, 'rejected');
  }

  private async respond(
    principal: Principal,
    invitationId: string,
    outcome: 'accepted' | 'rejected',
  ): Promise<Invitation> {
    const key = await this.callerEmailKey(principal);
    const peek = await this.invitations.findById(invitationId);
    if (!peek || !key || peek.emailKey !== key) throw new InvitationNotFoundError();
    return this.txHost.withTransaction(async () => {
      // Lock order of every membership command: the organization, then the invitation.
      await this.acceptance.lockOrganization(peek.organizationId);
      const invitation = await this.invitations.findById(invitationId, { lock: true });
      assertRespondable(invitation, outcome, new Date());
      if (outcome === 'accepted') await this.acceptance.grant(invitation, principal.id);
      const action = outcome === 'accepted' ? 'invitation.accepted' : 'invitation.rejected';
      await this.audit.record(principal, invitationAudit(invitation, action));
      return this.invitations.update(invitation.id, {
        status: outcome,
        respondedAt: new Date(),
        respondedBy: principal.id,
      });
    });
  }

  /** The pending invitation `id` of the scope, locked, with the caller's role there. */
  private async pendingInScope(
    principal: Principal,
    scope: InvitationScope,
    invitationId: string,
    authorize: ScopeAuthorizer,
  ): Promise<{ invitation: Invitation; actorRole: Role }> {
    const actorRole = await authorize(principal, scope);
    const invitation = await this.invitations.findById(invitationId, { lock: true });
    if (
      !invitation ||
      invitation.organizationId !== scope.organizationId ||
      invitation.projectId !== scope.projectId
    ) {
      throw new InvitationNotFoundError();
    }
    assertPending(invitation);
    // Acting on an invitation above one's own role is acting above one's role.
    assertMayGrant(
      actorRole,
      scope.projectId === null ? invitation.orgRole : invitation.projectRole,
    );
    return { invitation, actorRole };
  }

  private async mail(invitation: Invitation, token: string, principal: Principal): Promise<void> {
    const { organizationId, projectId } = invitation;
    const names = await this.invitations.names(organizationId, projectId);
    await this.mailer.send(invitation, token, { ...names, inviter: principal.email });
  }

  /** Key of the caller's email: the access token's `email` claim, else the user directory's. */
  private async callerEmailKey(principal: Principal): Promise<string | null> {
    const email = principal.email ?? (await this.directory.findEmail(principal.id));
    return email ? emailKey(email) : null;
  }

  private expiryFrom(now: Date): Date {
    return new Date(now.getTime() + this.config.INVITATION_TTL_HOURS * 3600_000);
  }
}

function newInvitation(): Invitation {
  return { respondedAt: null, respondedBy: null } as Invitation;
}

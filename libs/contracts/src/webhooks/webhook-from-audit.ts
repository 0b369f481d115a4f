import type { AuditAction, AuditDetails, AuditEntry } from '../events/audit.events.js';
import { WEBHOOK_EVENT_CATALOG } from './webhook-catalog.js';
import type { WebhookEventType } from './webhook-event-types.js';
import { webhookEventId, type WebhookActor, type WebhookEvent } from './webhook-event.js';

/** What an action's mapper gives: the type, its data and the project it concerns. */
interface Mapped {
  type: WebhookEventType;
  data: Record<string, unknown>;
  projectId: string | null;
}
type ActionMapper = (entry: AuditEntry) => Mapped | null;

/**
 * Public webhook events of one organization audit entry (docs/webhooks.md § Sources), as org
 * stores it in `organizationId`'s log: an organization-level entry in its own organization, a
 * user-level entry of auth (two-factor, sessions) once in every organization of the user — so
 * org calls this once per organization it stored the entry in (docs/org.md § Audit log).
 *
 * 0 or 1 event: failed attempts (`outcome` `failure`) and actions outside the public catalog
 * (sign-ins other than through an organization's own connection, password changes, invitation
 * resends, key note edits, …) give none, and so does an
 * entry whose fields do not make a valid payload (a producer bug must not fail org's command;
 * the unit tests hold every producer's shape). The event id is derived from the entry id and
 * the organization, so storing the entry again yields the same id. `data` is built field by
 * field from named, non-secret parts of the entry and checked against the catalog's strict
 * schema: nothing else of the entry can reach a receiver. Pure: no I/O.
 */
export function webhookEventsFromAudit(entry: AuditEntry, organizationId: number): WebhookEvent[] {
  if (entry.outcome !== 'success') return [];
  const mapper = MAPPERS[entry.action];
  const mapped = mapper?.(entry);
  if (!mapped) return [];
  const catalog = WEBHOOK_EVENT_CATALOG[mapped.type];
  const parsed = catalog.data.safeParse(mapped.data);
  if (!parsed.success) return [];
  const tenant = String(organizationId);
  return [
    {
      id: webhookEventId(entry.id, tenant, mapped.type),
      type: mapped.type,
      version: catalog.version,
      timestamp: new Date(entry.occurredAt).toISOString(),
      organization_id: tenant,
      project_id: mapped.projectId,
      actor: actorOf(entry),
      data: parsed.data as Record<string, unknown>,
    },
  ];
}

/** Audit actor → webhook actor; `anonymous` (nobody signed in) → null. */
function actorOf(entry: AuditEntry): WebhookActor | null {
  if (entry.actor.type === 'anonymous') return null;
  return { type: entry.actor.type, id: entry.actor.id };
}

const text = (details: AuditDetails, key: string): string | null => {
  const value = details[key];
  return typeof value === 'string' ? value : null;
};
const id = (details: AuditDetails, key: string): string | null => {
  const value = details[key];
  return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
};
const lower = (role: string | null): string | null => (role === null ? null : role.toLowerCase());

/** The targeted user (`target` `{type: 'user', id, label: email}`). */
function targetUser(entry: AuditEntry): { id: string; email: string | null } | null {
  if (entry.target?.type !== 'user') return null;
  return { id: entry.target.id, email: entry.target.label };
}

/** The account of a user-level entry: the subject user, email from the target or actor. */
function subjectUser(entry: AuditEntry): { id: string; email: string | null } | null {
  const userId = entry.subjectUserId ?? (entry.target?.type === 'user' ? entry.target.id : null);
  if (userId === null) return null;
  const email =
    (entry.target?.type === 'user' && entry.target.id === userId ? entry.target.label : null) ??
    (entry.actor.id === userId ? entry.actor.email : null);
  return { id: userId, email };
}

/** Who left vs. was removed: the actor removed themselves. */
function removal(entry: AuditEntry, forced?: 'left'): 'left' | 'removed' {
  if (forced) return forced;
  return entry.actor.id !== null && entry.actor.id === entry.target?.id ? 'left' : 'removed';
}

function member(type: WebhookEventType, withPrevious: 'role' | 'previous' | 'both'): ActionMapper {
  return (entry) => {
    const user = targetUser(entry);
    if (!user) return null;
    const projectId = id(entry.details, 'projectId');
    const data: Record<string, unknown> = { user };
    if (withPrevious !== 'previous') data['role'] = text(entry.details, 'role');
    if (withPrevious !== 'role') data['previous_role'] = text(entry.details, 'previousRole');
    if (type.startsWith('project_')) data['project_id'] = projectId;
    return { type, data, projectId };
  };
}

function removed(type: 'member.removed' | 'project_member.removed', forced?: 'left'): ActionMapper {
  return (entry) => {
    const base = member(type, 'previous')(entry);
    if (!base) return null;
    return { ...base, data: { ...base.data, reason: removal(entry, forced) } };
  };
}

function invitation(type: WebhookEventType): ActionMapper {
  return (entry) => {
    if (entry.target?.type !== 'invitation') return null;
    const projectId = id(entry.details, 'projectId');
    return {
      type,
      projectId,
      data: {
        id: entry.target.id,
        email: entry.target.label,
        org_role: lower(text(entry.details, 'orgRole')),
        project_role: lower(text(entry.details, 'projectRole')),
        project_id: projectId,
      },
    };
  };
}

function credential(
  type: WebhookEventType,
  target: 'api_key' | 'llm_api_key' | 'sentinel_pass',
  labelField: 'label' | 'provider' | 'title',
): ActionMapper {
  return (entry) => {
    if (entry.target?.type !== target) return null;
    const projectId = id(entry.details, 'projectId');
    return {
      type,
      projectId,
      data: { id: entry.target.id, project_id: projectId, [labelField]: entry.target.label },
    };
  };
}

function userSecurity(type: WebhookEventType): ActionMapper {
  return (entry) => {
    const user = subjectUser(entry);
    if (!user) return null;
    let data: Record<string, unknown>;
    if (type === 'session.ended') {
      if (entry.target?.type !== 'session') return null;
      const current = entry.details['current'];
      data = {
        user,
        session_id: entry.target.id,
        current: typeof current === 'boolean' ? current : null,
      };
    } else if (type === 'session.others_ended') {
      const count = entry.details['sessionsEnded'];
      data = { user, sessions_ended: typeof count === 'number' ? count : null };
    } else {
      data = { user, method: text(entry.details, 'method') };
    }
    return { type, data, projectId: null };
  };
}

/**
 * `wallet.credited` (an Admin-Access credit) of an organization's, project's or agent's wallet
 * → `transaction.posted` (kind `credit`). A personal wallet's credit is a user-level entry of
 * the owner and belongs to no tenant endpoint: none.
 */
const credited: ActionMapper = (entry) => {
  if (entry.organizationId === null || entry.target?.type !== 'wallet') return null;
  const amount = Number(text(entry.details, 'amount'));
  const asset = text(entry.details, 'asset');
  const transactionId = text(entry.details, 'journalEntryId');
  if (!Number.isFinite(amount) || asset === null || transactionId === null) return null;
  return {
    type: 'transaction.posted',
    projectId: id(entry.details, 'projectId'),
    data: {
      id: transactionId,
      kind: 'credit',
      from_wallet: null,
      to_wallet: entry.target.id,
      amount,
      asset,
      to_amount: amount,
      to_asset: asset,
      description: null,
      reference_id: null,
      transfer_id: null,
      created_at: new Date(entry.occurredAt).toISOString(),
    },
  };
};

const securityPolicy: ActionMapper = (entry) => {
  const required = entry.details['requireTwoFactor'];
  if (typeof required !== 'boolean' || entry.organizationId === null) return null;
  return {
    type: 'organization.security_policy_changed',
    projectId: null,
    data: { organization_id: String(entry.organizationId), require_two_factor: required },
  };
};

const ssoSettings: ActionMapper = (entry) => {
  const required = entry.details['ssoRequired'];
  const role = text(entry.details, 'defaultRole');
  if (typeof required !== 'boolean' || !role || entry.organizationId === null) return null;
  return {
    type: 'organization.sso_settings_changed',
    projectId: null,
    data: {
      organization_id: String(entry.organizationId),
      sso_required: required,
      default_role: role,
    },
  };
};

const ssoConnection: ActionMapper = (entry) => {
  const issuer = text(entry.details, 'issuer');
  const { enabled, created } = entry.details;
  if (
    entry.target?.type !== 'oidc_connection' ||
    entry.target.label === null ||
    !issuer ||
    typeof enabled !== 'boolean' ||
    entry.organizationId === null
  ) {
    return null;
  }
  return {
    type: 'organization.sso_connection_changed',
    projectId: null,
    data: {
      organization_id: String(entry.organizationId),
      id: entry.target.id,
      slug: entry.target.label,
      issuer,
      enabled,
      created: created === true,
    },
  };
};

/**
 * A sign-in (`user.signed_in`, method `oidc`) or link (`user.identity_linked`) through an
 * organization's own connection: auth records these with the organization, so org stores them
 * in that organization only. Sign-ins through platform-wide connections (no organization) and
 * every other sign-in stay out of the catalog.
 */
function ssoSignIn(type: 'member.signed_in_with_sso' | 'member.identity_linked'): ActionMapper {
  return (entry) => {
    if (entry.organizationId === null) return null;
    if (type === 'member.signed_in_with_sso' && text(entry.details, 'method') !== 'oidc') {
      return null;
    }
    const user = subjectUser(entry);
    const connection = text(entry.details, 'connection');
    if (!user || !connection) return null;
    return {
      type,
      projectId: null,
      data: { user, connection, account: text(entry.details, 'account') },
    };
  };
}

function ssoDomain(type: 'sso_domain.verified' | 'sso_domain.removed'): ActionMapper {
  return (entry) => {
    if (entry.target?.type !== 'sso_domain' || entry.target.label === null) return null;
    const data: Record<string, unknown> = { id: entry.target.id, domain: entry.target.label };
    if (type === 'sso_domain.removed') data['was_verified'] = entry.details['wasVerified'] === true;
    return { type, projectId: null, data };
  };
}

/** Audit action → its public event; actions absent here have none. */
const MAPPERS: Partial<Record<AuditAction, ActionMapper>> = {
  'organization.security_policy_changed': securityPolicy,
  'organization.sso_settings_changed': ssoSettings,
  'organization.sso_connection_changed': ssoConnection,
  'sso_domain.verified': ssoDomain('sso_domain.verified'),
  'sso_domain.removed': ssoDomain('sso_domain.removed'),
  'member.added': member('member.added', 'role'),
  'user.signed_in': ssoSignIn('member.signed_in_with_sso'),
  'user.identity_linked': ssoSignIn('member.identity_linked'),
  'member.role_changed': member('member.role_changed', 'both'),
  'member.removed': removed('member.removed'),
  'member.left': removed('member.removed', 'left'),
  'project_member.added': member('project_member.added', 'role'),
  'project_member.role_changed': member('project_member.role_changed', 'both'),
  'project_member.removed': removed('project_member.removed'),
  'project_access.denied': member('project_access.denied', 'role'),
  'project_access.restored': member('project_access.restored', 'role'),
  'invitation.created': invitation('invitation.created'),
  'invitation.accepted': invitation('invitation.accepted'),
  'invitation.rejected': invitation('invitation.rejected'),
  'invitation.cancelled': invitation('invitation.cancelled'),
  'api_key.created': credential('api_key.created', 'api_key', 'label'),
  'api_key.deleted': credential('api_key.deleted', 'api_key', 'label'),
  'llm_api_key.created': credential('llm_api_key.created', 'llm_api_key', 'provider'),
  'llm_api_key.deleted': credential('llm_api_key.deleted', 'llm_api_key', 'provider'),
  'sentinel_pass.created': credential('sentinel_pass.created', 'sentinel_pass', 'title'),
  'sentinel_pass.rotated': credential('sentinel_pass.rotated', 'sentinel_pass', 'title'),
  'sentinel_pass.revoked': credential('sentinel_pass.revoked', 'sentinel_pass', 'title'),
  'sentinel_pass.activated': credential('sentinel_pass.activated', 'sentinel_pass', 'title'),
  'sentinel_pass.deleted': credential('sentinel_pass.deleted', 'sentinel_pass', 'title'),
  'wallet.credited': credited,
  'user.two_factor_enabled': userSecurity('user.two_factor_enabled'),
  'user.two_factor_disabled': userSecurity('user.two_factor_disabled'),
  'session.ended': userSecurity('session.ended'),
  'session.others_ended': userSecurity('session.others_ended'),
};

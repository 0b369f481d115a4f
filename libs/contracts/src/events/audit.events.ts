import { z } from 'zod';

/**
 * Every action the organization audit log knows (docs/org.md § Audit log). Names are
 * `<aggregate>.<past-tense verb>`; whether the attempt succeeded is the entry's `outcome`.
 *
 * - user-level, recorded by auth and copied into every organization of the user:
 *   sign-ins, two-factor changes, password changes and resets, ended sessions, provider
 *   identities linked and unlinked;
 * - organization-level, recorded by org: memberships, invitations, project access, keys,
 *   Sentinel Passes, the security policy, webhook endpoints;
 * - wallet credits (Admin-Access), recorded by the wallet service.
 */
export const AUDIT_ACTIONS = [
  'user.signed_in',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'user.recovery_codes_regenerated',
  'user.passkey_added',
  'user.passkey_removed',
  'user.password_changed',
  'user.password_reset',
  'session.ended',
  'session.others_ended',
  'user.identity_linked',
  'user.identity_unlinked',
  'organization.security_policy_changed',
  'organization.sso_settings_changed',
  'organization.sso_connection_changed',
  'sso_domain.added',
  'sso_domain.verified',
  'sso_domain.removed',
  'member.added',
  'member.role_changed',
  'member.removed',
  'member.left',
  'invitation.created',
  'invitation.resent',
  'invitation.role_changed',
  'invitation.cancelled',
  'invitation.accepted',
  'invitation.rejected',
  'project_member.added',
  'project_member.role_changed',
  'project_member.removed',
  'project_access.denied',
  'project_access.restored',
  'api_key.created',
  'api_key.updated',
  'api_key.deleted',
  'llm_api_key.created',
  'llm_api_key.deleted',
  'sentinel_pass.created',
  'sentinel_pass.updated',
  'sentinel_pass.rotated',
  'sentinel_pass.revoked',
  'sentinel_pass.activated',
  'sentinel_pass.deleted',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.enabled',
  'webhook_endpoint.disabled',
  'wallet.credited',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Who acted: a user, a Sentinel Pass agent, or nobody signed in (a failed sign-in, a reset). */
export const AuditActor = z.object({
  type: z.enum(['user', 'agent', 'anonymous']),
  id: z.string().max(200).nullable(),
  email: z.string().max(320).nullable(),
});
export type AuditActor = z.infer<typeof AuditActor>;

/** What was acted on: `type` (e.g. `user`, `session`, `api_key`), its id, a readable label. */
export const AuditTarget = z.object({
  type: z.string().min(1).max(64),
  id: z.string().min(1).max(200),
  label: z.string().max(500).nullable(),
});
export type AuditTarget = z.infer<typeof AuditTarget>;

/**
 * Non-secret facts about an action (a role, a count, a method). Values are short scalars: no
 * nested objects, so nothing a producer did not choose to name can slip in.
 */
export const AuditDetails = z.record(
  z.string().max(64),
  z.union([z.string().max(500), z.number(), z.boolean(), z.null()]),
);
export type AuditDetails = z.infer<typeof AuditDetails>;

/**
 * One audit entry as producers publish it. `organizationId` set: it belongs to that
 * organization; null: a user-level entry, stored once in every organization `subjectUserId`
 * belongs to when org consumes it. Never carries a password, code, token or key.
 */
export const AuditEntry = z
  .object({
    /** Idempotency key of storage (one row per organization and entry id). */
    id: z.uuid(),
    action: z.enum(AUDIT_ACTIONS),
    outcome: z.enum(AUDIT_OUTCOMES),
    occurredAt: z.iso.datetime({ offset: true }),
    organizationId: z.number().int().positive().nullable(),
    subjectUserId: z.uuid().nullable(),
    actor: AuditActor,
    target: AuditTarget.nullable(),
    clientAddress: z.string().max(100).nullable(),
    requestId: z.string().max(128).nullable(),
    userAgent: z.string().max(512).nullable(),
    details: AuditDetails,
  })
  .refine((e) => e.organizationId !== null || e.subjectUserId !== null, {
    message: 'an entry needs an organization or a subject user',
  });
export type AuditEntry = z.infer<typeof AuditEntry>;

/** `auth.audit.recorded`, `wallet.audit.recorded`: entries for the organization audit log. */
export const AuditRecorded = z.object({ entries: z.array(AuditEntry).min(1).max(100) });
export type AuditRecorded = z.infer<typeof AuditRecorded>;

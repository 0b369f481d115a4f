import { z } from 'zod';
import { INVITATION_ROLES, ROLES } from '../roles.js';

/**
 * The `data` of each webhook event type (docs/webhooks.md § Event catalog): snake_case, the
 * API's field names where the API shows the resource, ids as strings (organization and
 * project ids as the API's `data.id`). Objects are strict: a field a mapper did not name is
 * refused, so nothing unlisted (and no secret) can travel.
 */

const NumericId = z.string().regex(/^[1-9][0-9]*$/);
const Instant = z.iso.datetime({ offset: true });
const Role = z.enum(ROLES);
const InvitationRole = z.enum(INVITATION_ROLES);

/** A user as events name them: id and, when known, their email. */
export const WebhookUser = z.strictObject({ id: z.uuid(), email: z.string().nullable() });

export const OrganizationData = z.strictObject({ id: NumericId, name: z.string() });
export const OrganizationCreatedData = z.strictObject({
  id: NumericId,
  name: z.string(),
  created_by: z.uuid(),
  created_at: Instant,
});
export const OrganizationDeletedData = z.strictObject({ id: NumericId });
export const SecurityPolicyData = z.strictObject({
  organization_id: NumericId,
  require_two_factor: z.boolean(),
});

/** `organization.sso_settings_changed` (docs/org.md § Single sign-on for an organization). */
export const SsoSettingsData = z.strictObject({
  organization_id: NumericId,
  sso_required: z.boolean(),
  default_role: Role,
});

/**
 * `organization.sso_connection_changed` (docs/auth.md § Organization single sign-on): the
 * connection's id and slug (the `connection` of `/oauth/authorize`), issuer, whether it is
 * enabled, and whether this change created it. Never the client secret.
 */
export const SsoConnectionData = z.strictObject({
  organization_id: NumericId,
  id: z.uuid(),
  slug: z.string(),
  issuer: z.string(),
  enabled: z.boolean(),
  created: z.boolean(),
});

/** `sso_domain.verified`: an e-mail domain the organization proved by DNS. */
export const SsoDomainData = z.strictObject({ id: z.uuid(), domain: z.string() });

/** `sso_domain.removed`: `was_verified` false for a domain never proved. */
export const SsoDomainRemovedData = z.strictObject({
  id: z.uuid(),
  domain: z.string(),
  was_verified: z.boolean(),
});

export const ProjectData = z.strictObject({
  id: NumericId,
  organization_id: NumericId,
  name: z.string(),
  is_default: z.boolean(),
});
export const ProjectCreatedData = ProjectData.extend({
  created_by: z.uuid(),
  created_at: Instant,
});
export const ProjectDeletedData = z.strictObject({ id: NumericId, organization_id: NumericId });

/** `member.added`: an organization member with their role. */
export const MemberAddedData = z.strictObject({ user: WebhookUser, role: Role });
export const MemberRoleChangedData = z.strictObject({
  user: WebhookUser,
  role: Role,
  previous_role: Role.nullable(),
});
/** `reason` `left`: the member removed themselves; `removed`: someone else did. */
export const MemberRemovedData = z.strictObject({
  user: WebhookUser,
  previous_role: Role.nullable(),
  reason: z.enum(['removed', 'left']),
});

export const ProjectMemberAddedData = MemberAddedData.extend({ project_id: NumericId });
export const ProjectMemberRoleChangedData = MemberRoleChangedData.extend({
  project_id: NumericId,
});
export const ProjectMemberRemovedData = MemberRemovedData.extend({ project_id: NumericId });
/** `project_access.denied` / `.restored`: the member keeps their membership and role. */
export const ProjectAccessData = z.strictObject({
  project_id: NumericId,
  user: WebhookUser,
  role: Role.nullable(),
});

/** An invitation (organization, or project when `project_id` is set); never its token. */
export const InvitationData = z.strictObject({
  id: z.uuid(),
  email: z.string().nullable(),
  org_role: InvitationRole.nullable(),
  project_role: InvitationRole.nullable(),
  project_id: NumericId.nullable(),
});

/** A project API key pair: `label` is its note and public key; never the secret key. */
export const ApiKeyData = z.strictObject({
  id: z.string(),
  project_id: NumericId,
  label: z.string().nullable(),
});
/** An LLM provider key: the provider only; never the key, not even masked. */
export const LlmApiKeyData = z.strictObject({
  id: z.string(),
  project_id: NumericId,
  provider: z.string().nullable(),
});
/** A Sentinel Pass by id and title; never its key or key hash. */
export const SentinelPassData = z.strictObject({
  id: z.string(),
  project_id: NumericId,
  title: z.string().nullable(),
});

/** A wallet as `GET /wallets/{addressHash}` names it (docs/wallet.md § Records), no balance. */
export const WalletData = z.strictObject({
  address_hash: z.string(),
  entity_type: z.enum(['user', 'organization', 'project', 'agent']),
  entity_id: z.string(),
  purpose: z.string(),
  currency: z.string(),
});

export const TRANSACTION_KINDS = ['credit', 'debit', 'transfer', 'conversion'] as const;
/**
 * A posted movement (docs/wallet.md § Transaction record, one object per movement instead of
 * one line per side): `id` is its `transaction_id`. A null wallet is the issuance account
 * (credits come from it, debits go to it). Amounts are JSON numbers like the API's.
 */
export const TransactionData = z.strictObject({
  id: z.string(),
  kind: z.enum(TRANSACTION_KINDS),
  from_wallet: z.string().nullable(),
  to_wallet: z.string().nullable(),
  amount: z.number().positive(),
  asset: z.string(),
  to_amount: z.number().positive(),
  to_asset: z.string(),
  description: z.string().nullable(),
  reference_id: z.string().nullable(),
  transfer_id: z.string().nullable(),
  created_at: Instant,
});

export const TRANSFER_REQUEST_STATUSES = [
  'pending_sender_verification',
  'pending_recipient_acceptance',
  'completed',
  'rejected',
  'expired',
] as const;
/** A transfer request (docs/wallet.md § Transfer record) without its codes or attempts. */
export const TransferRequestData = z.strictObject({
  id: z.uuid(),
  from_wallet: z.string(),
  to_wallet: z.string(),
  amount: z.number().positive(),
  asset: z.string(),
  description: z.string().nullable(),
  status: z.enum(TRANSFER_REQUEST_STATUSES),
  failure_reason: z.string().nullable(),
  transaction_id: z.string().nullable(),
  created_at: Instant,
  updated_at: Instant,
});

/** `user.two_factor_enabled` / `_disabled`: the member's account; `method` when disabled. */
export const TwoFactorData = z.strictObject({
  user: WebhookUser,
  method: z.string().nullable(),
});
/**
 * `member.signed_in_with_sso` / `member.identity_linked`: a person signed in through the
 * organization's own connection (`connection` its slug); `account` says whether the account
 * existed with this identity (`existing`), was created just in time (`created`), or an existing
 * account got this identity linked (`linked`).
 */
export const SsoSignInData = z.strictObject({
  user: WebhookUser,
  connection: z.string(),
  account: z.enum(['existing', 'created', 'linked']),
});
/** `session.ended`: one session of the member ended by them (`current`: the one they used). */
export const SessionEndedData = z.strictObject({
  user: WebhookUser,
  session_id: z.string(),
  current: z.boolean().nullable(),
});
/** `session.others_ended`: the member signed out everywhere else. */
export const SessionsOthersEndedData = z.strictObject({
  user: WebhookUser,
  sessions_ended: z.number().int().nonnegative().nullable(),
});

/**
 * `webhook_endpoint.disabled`: the platform disabled one of the organization's endpoints —
 * `reason` `gone` (it answered 410) or `failing` (no success for too long) — since
 * `failing_since`. Not its URL or secret.
 */
export const WebhookEndpointDisabledData = z.strictObject({
  id: z.uuid(),
  project_id: NumericId.nullable(),
  reason: z.enum(['gone', 'failing']),
  failing_since: Instant.nullable(),
});

/** `ping`: a test event asked for on one endpoint. */
export const PingData = z.strictObject({ endpoint_id: z.string(), message: z.string() });

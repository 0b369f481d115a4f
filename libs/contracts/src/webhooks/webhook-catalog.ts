import type { ZodType } from 'zod';
import type { WebhookEventType } from './webhook-event-types.js';
import * as P from './webhook-payloads.js';
import { EXAMPLE_DATA } from './webhook-examples.js';

/** One catalog entry: payload version, schema of `data`, a one-line description, an example. */
export interface WebhookCatalogEntry {
  version: number;
  data: ZodType;
  description: string;
  /** An example of `data` (docs/openapi.json shows it; a unit test parses it with `data`). */
  example: Record<string, unknown>;
}

type Described = Omit<WebhookCatalogEntry, 'example' | 'version'> & { version?: number };

const ENTRIES: Record<WebhookEventType, Described> = {
  'organization.created': {
    data: P.OrganizationCreatedData,
    description: 'An organization was created (its creator is its first OWNER).',
  },
  'organization.updated': {
    data: P.OrganizationData,
    description: 'An organization was renamed.',
  },
  'organization.deleted': {
    data: P.OrganizationDeletedData,
    description: 'An organization was deleted.',
  },
  'organization.security_policy_changed': {
    data: P.SecurityPolicyData,
    description: "The organization's two-factor requirement was switched on or off.",
  },
  'organization.sso_settings_changed': {
    data: P.SsoSettingsData,
    description: "The organization's single sign-on requirement or default role changed.",
  },
  'organization.sso_connection_changed': {
    data: P.SsoConnectionData,
    description:
      "The organization's own OpenID connection was created or changed (never its secret).",
  },
  'sso_domain.verified': {
    data: P.SsoDomainData,
    description: 'An e-mail domain of the organization was verified by its DNS TXT record.',
  },
  'sso_domain.removed': {
    data: P.SsoDomainRemovedData,
    description: 'An e-mail domain was removed from the organization.',
  },
  'project.created': {
    data: P.ProjectCreatedData,
    description: 'A project was created (also the default project of a new organization).',
  },
  'project.updated': {
    data: P.ProjectData,
    description: 'A project was renamed or became the default project.',
  },
  'project.deleted': { data: P.ProjectDeletedData, description: 'A project was deleted.' },
  'member.added': {
    data: P.MemberAddedData,
    description: 'A user became a member of the organization.',
  },
  'member.role_changed': {
    data: P.MemberRoleChangedData,
    description: "An organization member's role changed.",
  },
  'member.removed': {
    data: P.MemberRemovedData,
    description: 'A member left the organization or was removed from it.',
  },
  'project_member.added': {
    data: P.ProjectMemberAddedData,
    description: 'A user became a member of a project.',
  },
  'project_member.role_changed': {
    data: P.ProjectMemberRoleChangedData,
    description: "A project member's role changed.",
  },
  'project_member.removed': {
    data: P.ProjectMemberRemovedData,
    description: 'A member left a project or was removed from it.',
  },
  'project_access.denied': {
    data: P.ProjectAccessData,
    description: "A project member's access was denied (membership and role kept).",
  },
  'project_access.restored': {
    data: P.ProjectAccessData,
    description: "A project member's denied access was restored.",
  },
  'invitation.created': {
    data: P.InvitationData,
    description: 'An invitation to the organization or one of its projects was sent.',
  },
  'invitation.accepted': {
    data: P.InvitationData,
    description: 'The invited user accepted the invitation.',
  },
  'invitation.rejected': {
    data: P.InvitationData,
    description: 'The invited user rejected the invitation.',
  },
  'invitation.cancelled': {
    data: P.InvitationData,
    description: 'The invitation was withdrawn before it was answered.',
  },
  'api_key.created': {
    data: P.ApiKeyData,
    description: 'A project API key pair was created (never its secret key).',
  },
  'api_key.deleted': { data: P.ApiKeyData, description: 'A project API key pair was deleted.' },
  'llm_api_key.created': {
    data: P.LlmApiKeyData,
    description: 'An LLM provider key was stored for a project (never the key).',
  },
  'llm_api_key.deleted': {
    data: P.LlmApiKeyData,
    description: 'An LLM provider key was deleted.',
  },
  'sentinel_pass.created': {
    data: P.SentinelPassData,
    description: 'A Sentinel Pass was created (never its key).',
  },
  'sentinel_pass.rotated': {
    data: P.SentinelPassData,
    description: "A Sentinel Pass's key was rotated (never the new key).",
  },
  'sentinel_pass.revoked': {
    data: P.SentinelPassData,
    description: 'A Sentinel Pass was revoked (made inactive).',
  },
  'sentinel_pass.activated': {
    data: P.SentinelPassData,
    description: 'A revoked Sentinel Pass was made active again.',
  },
  'sentinel_pass.deleted': {
    data: P.SentinelPassData,
    description: 'A Sentinel Pass was deleted.',
  },
  'wallet.created': {
    data: P.WalletData,
    description: 'A wallet of the organization or of one of its projects was opened.',
  },
  'transaction.posted': {
    data: P.TransactionData,
    description:
      'Money moved in or out of an organization or project wallet (credit, debit, transfer, conversion).',
  },
  'transfer_request.created': {
    data: P.TransferRequestData,
    description:
      'A two-party transfer request from or to an organization or project wallet was made.',
  },
  'transfer_request.accepted': {
    data: P.TransferRequestData,
    description: 'The recipient accepted a transfer request: the money moved.',
  },
  'transfer_request.rejected': {
    data: P.TransferRequestData,
    description:
      'The sender or the recipient rejected a transfer request (or too many wrong codes).',
  },
  'transfer_request.expired': {
    data: P.TransferRequestData,
    description: 'A transfer request expired unanswered; its reservation was released.',
  },
  'member.signed_in_with_sso': {
    data: P.SsoSignInData,
    description:
      "Someone signed in through the organization's own OpenID connection (single sign-on).",
  },
  'member.identity_linked': {
    data: P.SsoSignInData,
    description:
      "A sign-in through the organization's own connection created an account or linked the provider's identity to one.",
  },
  'user.two_factor_enabled': {
    data: P.TwoFactorData,
    description: 'A member of the organization turned two-factor authentication on.',
  },
  'user.two_factor_disabled': {
    data: P.TwoFactorData,
    description: 'A member of the organization turned two-factor authentication off.',
  },
  'session.ended': {
    data: P.SessionEndedData,
    description: 'A member of the organization ended one of their sessions.',
  },
  'session.others_ended': {
    data: P.SessionsOthersEndedData,
    description: 'A member of the organization ended all their other sessions.',
  },
  'webhook_endpoint.disabled': {
    data: P.WebhookEndpointDisabledData,
    description:
      "The platform disabled another of the organization's endpoints: it answered 410 Gone, or every delivery to it failed for days.",
  },
  ping: { data: P.PingData, description: 'A test event sent on request to one endpoint.' },
};

/**
 * The public webhook catalog (docs/webhooks.md § Event catalog): per type its payload version
 * (1 for all today; raised when a field changes meaning or disappears, never for an added
 * field), the zod schema of `data`, a description and an example of `data`.
 */
export const WEBHOOK_EVENT_CATALOG: Record<WebhookEventType, WebhookCatalogEntry> =
  Object.fromEntries(
    Object.entries(ENTRIES).map(([type, entry]) => [
      type,
      {
        version: entry.version ?? 1,
        data: entry.data,
        description: entry.description,
        example: EXAMPLE_DATA[type as WebhookEventType],
      },
    ]),
  ) as Record<WebhookEventType, WebhookCatalogEntry>;

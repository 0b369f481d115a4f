import { z } from 'zod';
import { ROLES } from '../roles.js';

const Id = z.number().int().positive();

/** `org.organization.created`: the wallet service opens the `operating` wallet from it. */
export const OrganizationCreated = z.object({
  organizationId: Id,
  name: z.string(),
  createdBy: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
});
/**
 * Who made a change: the user whose command it was (absent from events published before it
 * existed). Webhooks name them as the event's actor (docs/webhooks.md § Envelope).
 */
const ChangedBy = z.uuid().optional();

export const OrganizationUpdated = z.object({
  organizationId: Id,
  name: z.string(),
  changedBy: ChangedBy,
});
export const OrganizationDeleted = z.object({ organizationId: Id });

export const ProjectCreated = z.object({
  organizationId: Id,
  projectId: Id,
  name: z.string(),
  isDefault: z.boolean(),
  createdBy: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
});
export const ProjectUpdated = z.object({
  organizationId: Id,
  projectId: Id,
  name: z.string(),
  isDefault: z.boolean(),
  changedBy: ChangedBy,
});
export const ProjectDeleted = z.object({
  organizationId: Id,
  projectId: Id,
  /**
   * The organization's permission version taken by the deletion (it withdraws every right to
   * the project's wallets and data at once; docs/architecture.md § Withdrawn permissions at
   * once). Absent from events published before it existed.
   */
  organizationVersion: z.number().int().positive().optional(),
  changedBy: ChangedBy,
});

/**
 * `org.project.keys.changed`: the full current set of a project's API key pairs (event-carried
 * state transfer: consumers replace what they hold). Secrets travel only as SHA-256 hex hashes.
 */
export const ProjectKeysChanged = z.object({
  organizationId: Id,
  projectId: Id,
  version: z.number().int().nonnegative(),
  keys: z.array(
    z.object({
      id: z.string(),
      publicKey: z.string(),
      secretKeySha256: z.string().regex(/^[0-9a-f]{64}$/),
      expiresAt: z.iso.datetime({ offset: true }).nullable(),
    }),
  ),
});

/**
 * `org.membership.changed`: one user's standing in an organization (projectId null) or in one
 * project. `role` null means no membership any more. `version` grows with every change of that
 * (organization, project, user) triple so consumers drop stale redeliveries.
 */
export const MembershipChanged = z.object({
  organizationId: Id,
  projectId: Id.nullable(),
  userId: z.uuid(),
  role: z.enum(ROLES).nullable(),
  accessDenied: z.boolean(),
  version: z.number().int().nonnegative(),
  /**
   * The organization's permission version after this change: grows by one with every membership
   * change of the organization (docs/architecture.md § Withdrawn permissions at once). Absent
   * from events published before it existed.
   */
  organizationVersion: z.number().int().positive().optional(),
});

/**
 * `org.sentinel_pass.changed`: the credential state auth needs for agent token exchange.
 * `deleted` true removes it. The key travels only as a hash.
 */
export const SentinelPassChanged = z.object({
  passId: z.uuid(),
  organizationId: Id,
  projectId: Id,
  title: z.string(),
  active: z.boolean(),
  deleted: z.boolean(),
  keyHash: z.string().nullable(),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  allowedReferers: z.array(z.string()),
  scopes: z.array(z.string()),
  permissions: z.array(z.string()),
  version: z.number().int().nonnegative(),
  /**
   * The pass's credential epoch after this change: one more whenever an active pass becomes
   * inactive, the pass is deleted, or its key changes (agent tokens carry it in their `sid`,
   * docs/architecture.md § Withdrawn permissions at once). Absent from events published before
   * it existed.
   */
  credentialEpoch: z.number().int().nonnegative().optional(),
});

/**
 * `org.webhook_subscriptions.changed`: whether any enabled webhook endpoint of the organization
 * selects `transaction.posted` now (docs/webhooks.md § Transaction events and the transfer
 * path). The wallet service writes `wallet.transaction.posted` only for organizations that do,
 * which keeps the transfer path free of events nobody receives. `version` grows with every
 * change of the organization's endpoints, so consumers apply only newer states.
 */
export const WebhookSubscriptionsChanged = z.object({
  organizationId: Id,
  transactionEvents: z.boolean(),
  version: z.number().int().nonnegative(),
});

import { z } from 'zod';

const Id = z.number().int().positive();

/**
 * `org.organization_sso.changed`: an organization's verified e-mail domains and whether its
 * members at those domains must sign in through its own connection (docs/org.md § Single
 * sign-on for an organization). Event-carried state: auth replaces what it holds for the
 * organization when `version` is newer. No secret travels here (the connection and its client
 * secret live in auth).
 */
export const OrganizationSsoChanged = z.object({
  organizationId: Id,
  /** Lower-case ASCII domains (IDNA A-labels), verified by DNS TXT. */
  domains: z.array(z.string()),
  ssoRequired: z.boolean(),
  version: z.number().int().positive(),
});

/**
 * `auth.sso.signed_in`: a person signed in through an organization's own connection (docs/auth.md
 * § Organization single sign-on). Org makes them a member with the organization's default role
 * when they are not one yet (just-in-time provisioning, idempotent).
 */
export const SsoSignedIn = z.object({
  organizationId: Id,
  userId: z.uuid(),
  connection: z.string(),
  /** How the account was found: `existing`, `linked` or `created` (docs/auth.md). */
  account: z.enum(['existing', 'linked', 'created']),
});

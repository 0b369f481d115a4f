import { z } from 'zod';

/** A user as other services see it (user directory read models). */
export const UserSnapshot = z.object({
  userId: z.uuid(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(['pending_activation', 'active', 'disabled']),
});
export type UserSnapshot = z.infer<typeof UserSnapshot>;

/** `auth.user.registered`: an account was created (pending activation or already active). */
export const UserRegistered = UserSnapshot;
/** `auth.user.activated`: the account became active (immediately, or by code). */
export const UserActivated = UserSnapshot;
/** `auth.user.updated`: names, contact or status changed. */
export const UserUpdated = UserSnapshot;

/**
 * `auth.user.two_factor_changed`: the account turned two-factor authentication on or off.
 * `version` grows with every change of that account, so consumers apply only newer states
 * (org keeps it in its user directory for the organization two-factor policy).
 */
export const UserTwoFactorChanged = z.object({
  userId: z.uuid(),
  enabled: z.boolean(),
  version: z.number().int().positive(),
});
export type UserTwoFactorChanged = z.infer<typeof UserTwoFactorChanged>;

/**
 * `auth.activity.recorded` (and `org.activity.recorded`, `wallet.activity.recorded`): one or more
 * Sentinel Pass agent activity entries, stored by auth (docs/api.md § Sentinel Passes, activity
 * logs).
 */
export const ActivityEntry = z.object({
  id: z.uuid(),
  agentUserId: z.uuid(),
  activityType: z.enum(['api_request', 'token_generation', 'error']),
  service: z.string(),
  endpoint: z.string(),
  method: z.string(),
  statusCode: z.number().int(),
  latencyMs: z.number().nonnegative(),
  success: z.boolean(),
  clientAddress: z.string().nullable(),
  errorMessage: z.string().nullable().optional(),
  occurredAt: z.iso.datetime({ offset: true }),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;
export const ActivityRecorded = z.object({ entries: z.array(ActivityEntry).min(1) });

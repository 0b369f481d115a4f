import { roleRank, type Role } from '@wp/contracts';
import { CannotChangeOwnRoleError, InsufficientPermissionsError } from './membership.errors.js';

export interface RoleChange {
  actorId: string;
  /** The actor's role at the level of the change (organization role, or effective project role). */
  actorRole: Role;
  targetId: string;
  /** The target's current role there; null when they hold none yet (adding). */
  currentRole: Role | null;
  /** The role to grant; null when removing. */
  newRole: Role | null;
}

/**
 * The role rules of contract § Errors, for a caller who already holds the manage-members
 * permission (checked before, with `FORBIDDEN`):
 * - changing one's own role is `CANNOT_CHANGE_OWN_ROLE` (422), unless `allowSelf` (leaving);
 * - granting a role above one's own (an ADMIN promoting to OWNER) or acting on someone whose
 *   current role is above one's own is `INSUFFICIENT_PERMISSIONS` (403).
 * The last-owner rule (`INVALID_ROLE_TRANSITION`) needs a count and lives in the services.
 */
export function assertRoleChangeAllowed(change: RoleChange, options: { allowSelf?: boolean } = {}) {
  if (change.actorId === change.targetId && !options.allowSelf) {
    throw new CannotChangeOwnRoleError();
  }
  const ceiling = roleRank(change.actorRole);
  if (change.newRole !== null && roleRank(change.newRole) > ceiling) {
    throw new InsufficientPermissionsError(
      `An ${change.actorRole} cannot grant the ${change.newRole} role.`,
    );
  }
  if (change.currentRole !== null && roleRank(change.currentRole) > ceiling) {
    throw new InsufficientPermissionsError(
      `An ${change.actorRole} cannot change or remove an ${change.currentRole}.`,
    );
  }
}

/**
 * The ceiling rule alone, for grants without a current holder (invitations): granting a role
 * above one's own is `INSUFFICIENT_PERMISSIONS` (403).
 */
export function assertMayGrant(actorRole: Role, role: Role | null): void {
  if (role !== null && roleRank(role) > roleRank(actorRole)) {
    throw new InsufficientPermissionsError(`An ${actorRole} cannot grant the ${role} role.`);
  }
}

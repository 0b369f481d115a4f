import { roleRank, type Role } from '@wp/contracts';
import {
  CannotChangeOwnRoleError,
  InsufficientPermissionsError,
  InvalidRoleTransitionError,
} from './membership.errors.js';

export interface RoleChange {
  actorId: string;
  /** The actor's role at the level of the change (organization role, or effective project role). */
  actorRole: Role;
  targetId: string;
  /** The target's current role there; null when they hold none yet (adding). */
  currentRole: Role | null;
  /** The role to grant; null when removing. */
  newRole: Role | null;
  /**
   * The target is the organization's only OWNER (the services count under the organization
   * lock); organization changes only — a project never lacks an owner (docs/org.md).
   */
  targetIsLastOwner?: boolean;
}

/**
 * The role rules (docs/org.md § Role rules and statuses), for a caller who already holds the
 * manage-members permission (checked before, with `FORBIDDEN`), in this order:
 * 1. changing one's own role is `CANNOT_CHANGE_OWN_ROLE` (422), unless `allowSelf` (leaving);
 * 2. demoting or removing the last OWNER (`targetIsLastOwner`, any new role but OWNER) is
 *    `INVALID_ROLE_TRANSITION` (422), whoever asks — an ADMIN included: no role could make the
 *    change valid, ownership must be transferred first;
 * 3. granting a role above one's own (an ADMIN promoting to OWNER) or acting on someone whose
 *    current role is above one's own (an ADMIN changing a non-last OWNER) is
 *    `INSUFFICIENT_PERMISSIONS` (403). Leaving oneself skips this rule.
 */
export function assertRoleChangeAllowed(change: RoleChange, options: { allowSelf?: boolean } = {}) {
  const self = change.actorId === change.targetId;
  if (self && !options.allowSelf) throw new CannotChangeOwnRoleError();
  if (change.targetIsLastOwner && change.newRole !== 'OWNER') {
    throw new InvalidRoleTransitionError(
      change.newRole === null
        ? 'The last owner cannot leave or be removed; transfer ownership first.'
        : undefined,
    );
  }
  if (self) return;
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

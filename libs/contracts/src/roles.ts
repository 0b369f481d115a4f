/**
 * Membership roles (docs/api.md § Roles).
 *
 * Organization and project roles travel in `role` / `organization_role` fields as upper case;
 * invitation role fields (`orgRole`, `projectRole`) are lower case. Ranks order the roles:
 * OWNER > ADMIN > MEMBER > VIEWER.
 */
export const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

export const INVITATION_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

const RANK: Record<Role, number> = { OWNER: 4, ADMIN: 3, MEMBER: 2, VIEWER: 1 };

/** Numeric rank of a role: OWNER 4 … VIEWER 1. */
export function roleRank(role: Role): number {
  return RANK[role];
}

/** True when `role` is at least as strong as `atLeast`. */
export function roleAtLeast(role: Role, atLeast: Role): boolean {
  return RANK[role] >= RANK[atLeast];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** `member` → `MEMBER` (invitation wire form to membership form). */
export function roleFromInvitation(role: InvitationRole): Role {
  return role.toUpperCase() as Role;
}

/** `MEMBER` → `member`. */
export function roleToInvitation(role: Role): InvitationRole {
  return role.toLowerCase() as InvitationRole;
}

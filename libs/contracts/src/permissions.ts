import { roleAtLeast, type Role } from './roles.js';

/**
 * The single permission table (docs/architecture.md § Identity and access ("Authorization")):
 * guards and `meta.can` maps are both computed from it, so what a client is told it can do is
 * exactly what the server allows.
 *
 * Each permission names the weakest role that holds it. Organization OWNER/ADMIN hold implicit
 * ADMIN on every project of their organization (see {@link effectiveProjectRole}).
 */
export const ORGANIZATION_PERMISSIONS = {
  'organization.read': 'VIEWER',
  'organization.manageSettings': 'ADMIN',
  'organization.manageMembers': 'ADMIN',
  'organization.delete': 'OWNER',
  'organization.viewKeys': 'ADMIN',
  /** Read the audit log (docs/org.md § Audit log). */
  'organization.readAuditLog': 'ADMIN',
  /** Change the security policy, e.g. require two-factor (docs/org.md § Two-factor policy). */
  'organization.manageSecurity': 'OWNER',
  /** Manage webhook endpoints and their deliveries (docs/org.md § Webhooks). */
  'organization.manageWebhooks': 'ADMIN',
  'project.create': 'ADMIN',
  'wallet.read': 'VIEWER',
  'wallet.transact': 'ADMIN',
} as const satisfies Record<string, Role>;

export const PROJECT_PERMISSIONS = {
  'project.read': 'VIEWER',
  'project.update': 'ADMIN',
  'project.delete': 'ADMIN',
  'project.manageMembers': 'ADMIN',
  'project.manageKeys': 'ADMIN',
  'project.viewSecrets': 'ADMIN',
  'sentinelPass.read': 'VIEWER',
  'sentinelPass.manage': 'ADMIN',
  'wallet.read': 'VIEWER',
  'wallet.debit': 'ADMIN',
  'wallet.transact': 'ADMIN',
} as const satisfies Record<string, Role>;

export type OrganizationPermission = keyof typeof ORGANIZATION_PERMISSIONS;
export type ProjectPermission = keyof typeof PROJECT_PERMISSIONS;

export function organizationCan(
  role: Role | null | undefined,
  permission: OrganizationPermission,
): boolean {
  return role != null && roleAtLeast(role, ORGANIZATION_PERMISSIONS[permission]);
}

export function projectCan(role: Role | null | undefined, permission: ProjectPermission): boolean {
  return role != null && roleAtLeast(role, PROJECT_PERMISSIONS[permission]);
}

/**
 * The role a user effectively holds in a project: organization OWNER/ADMIN get at least ADMIN;
 * a denied project member gets nothing (null), whatever the organization role, unless the
 * organization role itself is OWNER/ADMIN; otherwise the explicit project role.
 */
export function effectiveProjectRole(input: {
  organizationRole: Role | null;
  projectRole: Role | null;
  accessDenied: boolean;
}): Role | null {
  const { organizationRole, projectRole, accessDenied } = input;
  if (organizationRole === 'OWNER') return 'OWNER';
  if (organizationRole === 'ADMIN') return projectRole === 'OWNER' ? 'OWNER' : 'ADMIN';
  if (accessDenied) return null;
  return projectRole;
}

/** `meta.can` map of an organization for a member of the given role: nested booleans. */
export function organizationCanMap(role: Role | null): Record<string, Record<string, boolean>> {
  return nest(
    Object.keys(ORGANIZATION_PERMISSIONS).map((p) => [
      p,
      organizationCan(role, p as OrganizationPermission),
    ]),
  );
}

/** `meta.can` map of a project for a member of the given effective role. */
export function projectCanMap(role: Role | null): Record<string, Record<string, boolean>> {
  return nest(
    Object.keys(PROJECT_PERMISSIONS).map((p) => [p, projectCan(role, p as ProjectPermission)]),
  );
}

function nest(entries: [string, boolean][]): Record<string, Record<string, boolean>> {
  const out: Record<string, Record<string, boolean>> = {};
  for (const [key, value] of entries) {
    const [group, action] = key.split('.') as [string, string];
    (out[group] ??= {})[action] = value;
  }
  return out;
}

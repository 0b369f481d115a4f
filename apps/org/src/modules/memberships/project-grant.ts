import { roleRank, type Role } from '@wp/contracts';
import { ValidationFailedError } from '@wp/http';

/** What adding to or inviting into a project grants. */
export interface ProjectGrant {
  role: Role;
  /** Organization role for someone not yet an organization member; null when project-only. */
  organizationRole: Role | null;
  projectOnly: boolean;
}

/**
 * The contract's rule on `organization_role` (docs/api.md § Projects, add_user): required when
 * `project_only` is false, and equal to or higher than the project role (400 otherwise).
 * Ignored when `project_only` is true.
 */
export function projectGrant(
  role: Role,
  organizationRole: Role | undefined,
  projectOnly: boolean,
  names: { organizationRole: string } = { organizationRole: 'organization_role' },
): ProjectGrant {
  if (projectOnly) return { role, organizationRole: null, projectOnly };
  if (organizationRole === undefined) {
    throw ValidationFailedError.at(
      { pointer: `/${names.organizationRole}` },
      `${names.organizationRole} is required unless project_only is true`,
    );
  }
  if (roleRank(organizationRole) < roleRank(role)) {
    throw ValidationFailedError.at(
      { pointer: `/${names.organizationRole}` },
      `must be equal to or higher than the project role (${role})`,
    );
  }
  return { role, organizationRole, projectOnly };
}

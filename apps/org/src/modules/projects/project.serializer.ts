import { projectCanMap, type Role } from '@wp/contracts';
import { resource, type Resource } from '@wp/http';
import type { ProjectMemberRow } from '../memberships/project-members.repository.js';
import type { Project } from '../tenants/project.entity.js';

export type ProjectAttributes = {
  name: string;
  isDefault: boolean;
  organizationId: string;
  membersCount: number;
  toolsCount: number;
  notebooksCount: number;
  hasWallet: boolean;
  hasTools: boolean;
  hasNotebooks: boolean;
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
};

/**
 * Project resource (docs/api.md § Project): `type` `project`, string `id`, `attributes.name`,
 * `attributes.isDefault`, plus the fields the list filters on (docs/org.md § Project list);
 * `meta.role` is the caller's effective project role and `meta.can` the project permission map
 * computed from it (the shared permission table); for an agent `meta.role` is null and
 * `meta.can` is given (`agentCanMap` of its pass's permissions).
 */
export function toProjectResource(
  project: Project,
  role: Role | null,
  relationships?: Resource['relationships'],
  can: Record<string, Record<string, boolean>> = projectCanMap(role),
): Resource<ProjectAttributes> {
  return resource(
    'project',
    project.id,
    {
      name: project.name,
      isDefault: project.isDefault,
      organizationId: String(project.organizationId),
      membersCount: project.membersCount,
      toolsCount: project.toolsCount,
      notebooksCount: project.notebooksCount,
      hasWallet: project.hasWallet,
      hasTools: project.toolsCount > 0,
      hasNotebooks: project.notebooksCount > 0,
      lastActivityAt: project.lastActivityAt.toISOString(),
      createdAt: project.createdAt.toISOString(),
      updatedAt: project.updatedAt.toISOString(),
    },
    { ...(relationships ? { relationships } : {}), meta: { role, can } },
  );
}

export type ProjectMemberAttributes = {
  email: string | null;
  firstName: string;
  lastName: string;
  role: Role;
  accessDenied: boolean;
  organizationRole: Role | null;
  joinedAt: string;
};

/**
 * A project member (`GET P/{id}/users`, `include=users`): `type` `users`, the project `role`
 * (while `accessDenied`, the role `restore_access` gives back) and the organization role
 * (null for project-only members).
 */
export function toProjectMemberResource(
  member: ProjectMemberRow,
): Resource<ProjectMemberAttributes> {
  return resource('users', member.userId, {
    email: member.email,
    firstName: member.firstName,
    lastName: member.lastName,
    role: member.role,
    accessDenied: member.accessDenied,
    organizationRole: member.organizationRole,
    joinedAt: member.createdAt.toISOString(),
  });
}

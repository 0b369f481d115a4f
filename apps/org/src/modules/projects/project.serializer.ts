import { projectCanMap, type Role } from '@wp/contracts';
import { resource, type Resource } from '@wp/http';
import type { Project } from './project.entity.js';

export type ProjectAttributes = {
  name: string;
  isDefault: boolean;
  organizationId: string;
  createdAt: string;
  updatedAt: string;
};

/**
 * Project resource (contract § "Project"): `type` `project`, string `id`, `attributes.name`,
 * `attributes.isDefault`; `meta.role` is the caller's effective project role and `meta.can`
 * the project permission map computed from it (the shared permission table).
 */
export function toProjectResource(
  project: Project,
  role: Role | null,
): Resource<ProjectAttributes> {
  return resource(
    'project',
    project.id,
    {
      name: project.name,
      isDefault: project.isDefault,
      organizationId: String(project.organizationId),
      createdAt: project.createdAt.toISOString(),
      updatedAt: project.updatedAt.toISOString(),
    },
    { meta: { role, can: projectCanMap(role) } },
  );
}

import { organizationCanMap, type Role } from '@wp/contracts';
import { resource, type Resource } from '@wp/http';
import type { Organization } from './organization.entity.js';

export interface OrganizationAttributes {
  name: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Organization resource (contract § "Organization"): `type` `organization`, string `id`,
 * `attributes.name`, and `meta.can` (the caller's permission map from the shared permission
 * table) plus `meta.role` (the caller's role).
 */
export function toOrganizationResource(
  organization: Organization,
  role: Role,
): Resource<OrganizationAttributes> {
  return resource(
    'organization',
    organization.id,
    {
      name: organization.name,
      createdAt: organization.createdAt.toISOString(),
      updatedAt: organization.updatedAt.toISOString(),
    },
    { meta: { role, can: organizationCanMap(role) } },
  );
}

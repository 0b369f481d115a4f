import { organizationCanMap, type Role } from '@wp/contracts';
import { resource, type Resource, type ResourceIdentifier } from '@wp/http';
import type { MemberRow } from '../memberships/organization-members.repository.js';
import type { Organization } from '../tenants/organization.entity.js';

export type OrganizationAttributes = {
  name: string;
  createdAt: string;
  updatedAt: string;
};

export type UserAttributes = {
  email: string | null;
  firstName: string;
  lastName: string;
};

export type MemberUserAttributes = UserAttributes & {
  role: Role;
  joinedAt: string;
};

export type MembershipAttributes = {
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
};

export type OrganizationRelationships = Record<string, { data: ResourceIdentifier[] }>;

/**
 * Organization resource (docs/api.md § Organization): `type` `organization`, string `id` (equal
 * to the requested id), `attributes.name`, and `meta.can` (the caller's permission map from the
 * shared permission table, docs/org.md § Permission table) plus `meta.role` (the caller's role).
 * An organization that requires two-factor adds `meta.twoFactorRequired: true`; for a caller it
 * shuts out (`twoFactorBlocked`) every `meta.can` entry is false (docs/org.md § Two-factor
 * policy).
 */
export function toOrganizationResource(
  organization: Organization,
  role: Role | null,
  relationships?: OrganizationRelationships,
  twoFactorBlocked = false,
): Resource<OrganizationAttributes> {
  return resource(
    'organization',
    organization.id,
    {
      name: organization.name,
      createdAt: organization.createdAt.toISOString(),
      updatedAt: organization.updatedAt.toISOString(),
    },
    {
      ...(relationships ? { relationships } : {}),
      meta: {
        role,
        can: organizationCanMap(twoFactorBlocked ? null : role),
        ...(organization.requireTwoFactor ? { twoFactorRequired: true } : {}),
      },
    },
  );
}

/**
 * A user as `included` carries it (no role: a user may hold different roles in different places).
 */
export function toUserResource(member: {
  userId: string;
  email: string | null;
  firstName: string;
  lastName: string;
}): Resource<UserAttributes> {
  return resource('users', member.userId, {
    email: member.email,
    firstName: member.firstName,
    lastName: member.lastName,
  });
}

/** `GET /organizations/{id}/users` entry: a user with their role in that organization. */
export function toMemberUserResource(member: MemberRow): Resource<MemberUserAttributes> {
  return resource('users', member.userId, {
    email: member.email,
    firstName: member.firstName,
    lastName: member.lastName,
    role: member.role,
    joinedAt: member.createdAt.toISOString(),
  });
}

/** `organization_memberships` resource, id `<organizationId>:<userId>`. */
export function toMembershipResource(member: {
  organizationId: number;
  userId: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}): Resource<MembershipAttributes> {
  return resource(
    'organization_memberships',
    `${member.organizationId}:${member.userId}`,
    {
      organizationId: String(member.organizationId),
      userId: member.userId,
      role: member.role,
      createdAt: member.createdAt.toISOString(),
      updatedAt: member.updatedAt.toISOString(),
    },
    {
      relationships: {
        user: { data: { type: 'users', id: member.userId } },
        organization: { data: { type: 'organization', id: String(member.organizationId) } },
      },
    },
  );
}

/** Resource identifiers of a list of resources. */
export function identifiers(resources: Resource[]): ResourceIdentifier[] {
  return resources.map((r) => ({ type: r.type, id: r.id }));
}

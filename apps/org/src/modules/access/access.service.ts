import { Injectable } from '@nestjs/common';
import { organizationCan, type OrganizationPermission, type Role } from '@wp/contracts';
import type { Principal } from '@wp/security';
import type { EntityManager } from 'typeorm';
import type { Organization } from '../organizations/organization.entity.js';
import { OrganizationNotFoundError, PermissionDeniedError } from './access.errors.js';
import { AccessRepository } from './access.repository.js';

/** The caller's standing in one organization, resolved from the database on every request. */
export interface OrganizationAccess {
  organization: Organization;
  userId: string;
  /** The caller's organization role. */
  role: Role | null;
}

/**
 * Authorization (ARCHITECTURE § 3): permissions are resolved per request from the database (no
 * token claims, no cache), so a role change takes effect on the very next request. Whether a
 * caller may do something is asked of the single permission table in `@wp/contracts`, the same
 * table `meta.can` is computed from.
 */
@Injectable()
export class AccessService {
  constructor(private readonly access: AccessRepository) {}

  /**
   * The caller's access to an organization.
   * @throws OrganizationNotFoundError 404 when it does not exist or the caller is not a member
   */
  async organization(
    principal: Principal,
    organizationId: number,
    options: { manager?: EntityManager; lock?: boolean } = {},
  ): Promise<OrganizationAccess> {
    const row = await this.access.findOrganizationAccess(organizationId, principal.id, options);
    if (!row || row.role === null) throw new OrganizationNotFoundError();
    return { organization: row.organization, userId: principal.id, role: row.role };
  }

  /**
   * {@link organization} plus a permission from the table.
   * @throws OrganizationNotFoundError 404 for non-members; PermissionDeniedError 403 `FORBIDDEN`
   */
  async organizationWith(
    principal: Principal,
    organizationId: number,
    permission: OrganizationPermission,
    options: { manager?: EntityManager; lock?: boolean } = {},
  ): Promise<OrganizationAccess & { role: Role }> {
    const access = await this.organization(principal, organizationId, options);
    requireOrganizationPermission(access, permission);
    return access as OrganizationAccess & { role: Role };
  }
}

/** @throws PermissionDeniedError 403 `FORBIDDEN` when the caller's role lacks `permission`. */
export function requireOrganizationPermission(
  access: OrganizationAccess,
  permission: OrganizationPermission,
): void {
  if (!organizationCan(access.role, permission)) throw new PermissionDeniedError(permission);
}

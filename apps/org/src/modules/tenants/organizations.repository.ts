import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import { Organization } from './organization.entity.js';

export interface OrganizationWithRole {
  organization: Organization;
  /** The user's organization role; null for a project-only member. */
  role: Role | null;
  /**
   * The organization requires two-factor, the user's account does not have it and the session
   * was not opened with two factors (a passkey): every organization route refuses them, so
   * `meta.can` grants nothing (docs/org.md § Two-factor policy).
   */
  twoFactorBlocked?: boolean;
}

/** Organizations: the only code that reads or writes `organization`. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly txHost: TxHost) {}

  async insert(name: string): Promise<Organization> {
    const manager = activeTransaction(this.txHost);
    const organization = manager.create(Organization, { name });
    return manager.save(organization);
  }

  /** Renames; returns the row as stored (new `updatedAt`). */
  async rename(id: number, name: string): Promise<Organization> {
    const manager = activeTransaction(this.txHost);
    await manager.update(Organization, { id }, { name });
    return manager.findOneByOrFail(Organization, { id });
  }

  /**
   * Organizations visible to the user — as a member, or through a project membership with
   * access (project-only members, role null) — with the user's role, oldest first (one query).
   * @param twoFactorSession the caller's session counts as two factors (`sessionHasTwoFactors`):
   *   the two-factor policy then blocks nothing, as `AccessService.organization()` decides
   */
  async findForUser(userId: string, twoFactorSession: boolean): Promise<OrganizationWithRole[]> {
    const rows: {
      id: number;
      name: string;
      created_at: Date;
      updated_at: Date;
      require_two_factor: boolean;
      member_role: Role | null;
      two_factor_blocked: boolean;
    }[] = await this.txHost.tx.query(
      `SELECT o.id, o.name, o.created_at, o.updated_at, o.require_two_factor,
              m.role AS member_role,
              o.require_two_factor AND NOT $2::boolean AND NOT coalesce(
                (SELECT d.two_factor_enabled FROM directory_user d WHERE d.id = $1), false)
                AS two_factor_blocked
       FROM organization o
       LEFT JOIN organization_membership m ON m.organization_id = o.id AND m.user_id = $1
       WHERE o.id IN (
         SELECT organization_id FROM organization_membership WHERE user_id = $1
         UNION
         SELECT organization_id FROM project_membership WHERE user_id = $1 AND NOT access_denied)
       ORDER BY o.id`,
      [userId, twoFactorSession],
    );
    return rows.map((r) => ({
      organization: Object.assign(new Organization(), {
        id: r.id,
        name: r.name,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        requireTwoFactor: r.require_two_factor,
      }),
      role: r.member_role,
      twoFactorBlocked: r.two_factor_blocked,
    }));
  }
}

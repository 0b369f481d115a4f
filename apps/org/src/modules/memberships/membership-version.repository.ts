import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';

@Injectable()
export class MembershipVersionRepository {
  constructor(private readonly txHost: TxHost) {}

  /**
   * Increments and returns the version of (organization, project, user); the first is 1. The
   * upsert keeps the counter row locked until the transaction ends, so versions follow commit
   * order.
   */
  async next(organizationId: number, projectId: number, userId: string): Promise<number> {
    const manager = activeTransaction(this.txHost);
    const rows: { version: string }[] = await manager.query(
      `INSERT INTO membership_version (organization_id, project_id, user_id, version)
       VALUES ($1, $2, $3, 1)
       ON CONFLICT (organization_id, project_id, user_id)
         DO UPDATE SET version = membership_version.version + 1
       RETURNING version`,
      [organizationId, projectId, userId],
    );
    return Number(rows[0].version);
  }

  /**
   * Increments and returns the permission version of the organization (first 1); like
   * {@link next}, the row stays locked until the transaction ends, so an organization's
   * membership changes commit one after another, in version order.
   */
  async nextOrganization(organizationId: number): Promise<number> {
    const manager = activeTransaction(this.txHost);
    const rows: { version: string }[] = await manager.query(
      `INSERT INTO organization_permission_version (organization_id, version) VALUES ($1, 1)
       ON CONFLICT (organization_id)
         DO UPDATE SET version = organization_permission_version.version + 1
       RETURNING version`,
      [organizationId],
    );
    return Number(rows[0].version);
  }

  /**
   * Every organization's permission version (what org's rebuild of the store restores), read in
   * the rebuild's transaction: the one `readForRebuild` of `@wp/security` opens on this host.
   * @throws Error when no transaction is active
   */
  async allOrganizations(): Promise<{ organizationId: number; version: number }[]> {
    const manager = activeTransaction(this.txHost);
    const rows: { organization_id: number; version: string }[] = await manager.query(
      'SELECT organization_id, version FROM organization_permission_version',
    );
    return rows.map((r) => ({ organizationId: r.organization_id, version: Number(r.version) }));
  }
}

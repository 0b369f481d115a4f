import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';

/** The organization's security policy columns and the counts it shows. */
@Injectable()
export class SecurityPolicyRepository {
  constructor(private readonly txHost: TxHost) {}

  async setRequireTwoFactor(organizationId: number, required: boolean): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query(`UPDATE organization SET require_two_factor = $2 WHERE id = $1`, [
      organizationId,
      required,
    ]);
  }

  /** Members (organization level or project-only) whose account has two-factor off. */
  async countMembersWithoutTwoFactor(organizationId: number): Promise<number> {
    const manager = this.txHost.tx;
    const [row] = await manager.query<{ n: string }[]>(
      `SELECT count(*) AS n
         FROM (SELECT user_id FROM organization_membership WHERE organization_id = $1
               UNION
               SELECT user_id FROM project_membership WHERE organization_id = $1) m
         LEFT JOIN directory_user d ON d.id = m.user_id
        WHERE NOT coalesce(d.two_factor_enabled, false)`,
      [organizationId],
    );
    return Number(row?.n ?? 0);
  }

  /** Whether a user's account has two-factor on, as the directory knows it. */
  async userHasTwoFactor(userId: string): Promise<boolean> {
    const manager = activeTransaction(this.txHost);
    const rows = await manager.query<{ two_factor_enabled: boolean }[]>(
      `SELECT two_factor_enabled FROM directory_user WHERE id = $1`,
      [userId],
    );
    return rows[0]?.two_factor_enabled ?? false;
  }
}

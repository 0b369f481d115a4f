import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';

/** One row of `organization_domain`. */
export interface DomainRow {
  id: string;
  organizationId: number;
  domain: string;
  verificationToken: string;
  verifiedAt: Date | null;
  createdAt: Date;
}

/** One row of `organization_sso` (defaults when the organization has none). */
export interface SsoSettingsRow {
  ssoRequired: boolean;
  defaultRole: string;
}

const COLUMNS = `id, organization_id AS "organizationId", domain,
  verification_token AS "verificationToken", verified_at AS "verifiedAt", created_at AS "createdAt"`;

/** `organization_domain` and `organization_sso` (docs/org.md § Single sign-on for an organization). */
@Injectable()
export class SsoDomainsRepository {
  constructor(private readonly txHost: TxHost) {}

  /** @returns false when the organization already has this domain */
  async insert(row: DomainRow): Promise<boolean> {
    const rows = await activeTransaction(this.txHost).query<unknown[]>(
      `INSERT INTO organization_domain
         (id, organization_id, domain, verification_token, verified_at, created_at)
       VALUES ($1, $2, $3, $4, NULL, $5)
       ON CONFLICT (organization_id, domain) DO NOTHING RETURNING id`,
      [row.id, row.organizationId, row.domain, row.verificationToken, row.createdAt],
    );
    return rows.length > 0;
  }

  list(organizationId: number): Promise<DomainRow[]> {
    return this.txHost.tx.query<DomainRow[]>(
      `SELECT ${COLUMNS} FROM organization_domain WHERE organization_id = $1 ORDER BY domain`,
      [organizationId],
    );
  }

  async find(organizationId: number, id: string): Promise<DomainRow | null> {
    const rows = await this.txHost.tx.query<DomainRow[]>(
      `SELECT ${COLUMNS} FROM organization_domain WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** Whether another organization verified `domain`. */
  async verifiedElsewhere(organizationId: number, domain: string): Promise<boolean> {
    const rows = await activeTransaction(this.txHost).query<unknown[]>(
      `SELECT 1 FROM organization_domain
        WHERE domain = $1 AND verified_at IS NOT NULL AND organization_id <> $2`,
      [domain, organizationId],
    );
    return rows.length > 0;
  }

  async markVerified(id: string, at: Date): Promise<void> {
    await activeTransaction(this.txHost).query(
      `UPDATE organization_domain SET verified_at = $2 WHERE id = $1 AND verified_at IS NULL`,
      [id, at],
    );
  }

  /** @returns the deleted row, or null */
  async delete(organizationId: number, id: string): Promise<DomainRow | null> {
    const [rows] = await activeTransaction(this.txHost).query<[DomainRow[], number]>(
      `DELETE FROM organization_domain WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  async settings(organizationId: number): Promise<SsoSettingsRow> {
    const rows = await this.txHost.tx.query<SsoSettingsRow[]>(
      `SELECT sso_required AS "ssoRequired", default_role AS "defaultRole"
         FROM organization_sso WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0] ?? { ssoRequired: false, defaultRole: 'MEMBER' };
  }

  async saveSettings(organizationId: number, settings: SsoSettingsRow): Promise<void> {
    await activeTransaction(this.txHost).query(
      `INSERT INTO organization_sso (organization_id, sso_required, default_role)
       VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO UPDATE
         SET sso_required = EXCLUDED.sso_required, default_role = EXCLUDED.default_role`,
      [organizationId, settings.ssoRequired, settings.defaultRole],
    );
  }

  /**
   * Takes the next version of the organization's SSO state and reads it (the verified domains
   * and `ssoRequired`), for `org.organization_sso.changed`.
   */
  async nextState(
    organizationId: number,
  ): Promise<{ version: number; ssoRequired: boolean; domains: string[] }> {
    const manager = activeTransaction(this.txHost);
    const [row] = await manager.query<{ version: string; sso_required: boolean }[]>(
      `INSERT INTO organization_sso (organization_id, version) VALUES ($1, 1)
       ON CONFLICT (organization_id) DO UPDATE SET version = organization_sso.version + 1
       RETURNING version, sso_required`,
      [organizationId],
    );
    const domains = await manager.query<{ domain: string }[]>(
      `SELECT domain FROM organization_domain
        WHERE organization_id = $1 AND verified_at IS NOT NULL ORDER BY domain`,
      [organizationId],
    );
    return {
      version: Number(row.version),
      ssoRequired: row.sso_required,
      domains: domains.map((d) => d.domain),
    };
  }

  async organizationExists(organizationId: number): Promise<boolean> {
    const rows = await this.txHost.tx.query<unknown[]>('SELECT 1 FROM organization WHERE id = $1', [
      organizationId,
    ]);
    return rows.length > 0;
  }
}

import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import type { Role } from '@wp/contracts';
import { DataSource } from 'typeorm';
import type { MembershipRoles } from '../memberships/memberships.repository.js';
import { newWalletAddress } from '../../common/address.js';
import { Wallet, type WalletEntityType } from './wallet.entity.js';

export type NewWallet = Pick<
  Wallet,
  'entityType' | 'entityId' | 'entityName' | 'purpose' | 'currency' | 'metadata'
> & { description?: string; organizationId?: number | null; projectId?: number | null };

/** A wallet with the roles one user holds towards its organization / project. */
export interface WalletWithRoles {
  wallet: Wallet;
  roles: MembershipRoles;
}

const WALLET_COLUMNS = `w.address_hash, w.entity_type, w.entity_id, w.entity_name, w.purpose,
  w.currency, w.description, w.metadata, w.organization_id, w.project_id, w.closed_at,
  w.created_at, w.updated_at`;

const ROLE_JOINS = `
  LEFT JOIN organization_member om ON om.organization_id = w.organization_id AND om.user_id = $1
  LEFT JOIN project_member pm ON pm.project_id = w.project_id AND pm.user_id = $1`;

const ROLE_COLUMNS = `om.role AS organization_role, pm.role AS project_role,
  coalesce(pm.access_denied, false) AS access_denied,
  (SELECT version FROM tenant_permission_version tv
    WHERE tv.organization_id = w.organization_id) AS applied_version`;

@Injectable()
export class WalletsRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Opens a wallet unless the entity already has one for the purpose.
   * @returns the new wallet, or null when one existed (nothing written)
   */
  async insertIfAbsent(wallet: NewWallet): Promise<Wallet | null> {
    const rows: WalletRow[] = await this.txHost.tx.query(
      `INSERT INTO wallet AS w
         (address_hash, entity_type, entity_id, entity_name, purpose, currency, description,
          metadata, organization_id, project_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (entity_type, entity_id, purpose) DO NOTHING
       RETURNING ${WALLET_COLUMNS}`,
      [
        newWalletAddress(),
        wallet.entityType,
        wallet.entityId,
        wallet.entityName,
        wallet.purpose,
        wallet.currency,
        wallet.description ?? '',
        JSON.stringify(wallet.metadata),
        wallet.organizationId ?? null,
        wallet.projectId ?? null,
      ],
    );
    return rows.length === 0 ? null : walletFromRow(rows[0]);
  }

  async findByEntity(
    entityType: WalletEntityType,
    entityId: string,
    purpose: string,
  ): Promise<Wallet | null> {
    const rows: WalletRow[] = await this.dataSource.query(
      `SELECT ${WALLET_COLUMNS} FROM wallet w
       WHERE w.entity_type = $1 AND w.entity_id = $2 AND w.purpose = $3`,
      [entityType, entityId, purpose],
    );
    return rows.length === 0 ? null : walletFromRow(rows[0]);
  }

  /** The open wallets of one entity, oldest first. */
  async findOpenOfEntity(entityType: WalletEntityType, entityId: string): Promise<Wallet[]> {
    const rows: WalletRow[] = await this.dataSource.query(
      `SELECT ${WALLET_COLUMNS} FROM wallet w
       WHERE w.entity_type = $1 AND w.entity_id = $2 AND w.closed_at IS NULL
       ORDER BY w.created_at, w.address_hash`,
      [entityType, entityId],
    );
    return rows.map(walletFromRow);
  }

  /** One wallet and the roles `userId` (null: nobody, e.g. an agent) holds towards it. */
  async findWithRoles(address: string, userId: string | null): Promise<WalletWithRoles | null> {
    const rows: (WalletRow & RolesRow)[] = await this.dataSource.query(
      `SELECT ${WALLET_COLUMNS}, ${ROLE_COLUMNS}
       FROM wallet w ${ROLE_JOINS}
       WHERE w.address_hash = $2`,
      [userId, address],
    );
    return rows.length === 0 ? null : withRoles(rows[0]);
  }

  /**
   * Open wallets that may be visible to `userId`: their own, and those of organizations and
   * projects they have any role in, with those roles (the caller applies the policy); oldest
   * first.
   */
  async findCandidatesFor(
    userId: string,
    entityType: WalletEntityType | undefined,
  ): Promise<WalletWithRoles[]> {
    const rows: (WalletRow & RolesRow)[] = await this.dataSource.query(
      `WITH candidate AS (
         SELECT address_hash FROM wallet WHERE entity_type = 'user' AND entity_id = ($1::uuid)::text
         UNION
         SELECT w.address_hash FROM organization_member m
           JOIN wallet w ON w.organization_id = m.organization_id
          WHERE m.user_id = $1 AND m.role IS NOT NULL
         UNION
         SELECT w.address_hash FROM project_member m
           JOIN wallet w ON w.project_id = m.project_id
          WHERE m.user_id = $1 AND m.role IS NOT NULL
       )
       SELECT ${WALLET_COLUMNS}, ${ROLE_COLUMNS}
       FROM candidate c JOIN wallet w ON w.address_hash = c.address_hash ${ROLE_JOINS}
       WHERE w.closed_at IS NULL AND ($2::text IS NULL OR w.entity_type = $2)
       ORDER BY w.created_at, w.address_hash`,
      [userId, entityType ?? null],
    );
    return rows.map(withRoles);
  }

  /** Updates the editable fields; returns the wallet after the update. */
  async update(
    address: string,
    changes: { entityName?: string; description?: string },
  ): Promise<Wallet> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows]: [WalletRow[], number] = await this.dataSource.query(
      `UPDATE wallet w SET entity_name = coalesce($2, w.entity_name),
              description = coalesce($3, w.description), updated_at = now()
       WHERE w.address_hash = $1
       RETURNING ${WALLET_COLUMNS}`,
      [address, changes.entityName ?? null, changes.description ?? null],
    );
    return walletFromRow(rows[0]);
  }

  /** Closes the open wallets of an organization (incl. its projects' and agents'). */
  async closeOfOrganization(organizationId: number): Promise<void> {
    await this.txHost.tx.query(
      `UPDATE wallet SET closed_at = now(), updated_at = now()
       WHERE organization_id = $1 AND closed_at IS NULL`,
      [organizationId],
    );
  }

  /** Closes the open wallets of a project and of its agents. */
  async closeOfProject(projectId: number): Promise<void> {
    await this.txHost.tx.query(
      `UPDATE wallet SET closed_at = now(), updated_at = now()
       WHERE project_id = $1 AND closed_at IS NULL`,
      [projectId],
    );
  }

  /** Closes an agent's open wallets. */
  async closeOfAgent(passId: string): Promise<void> {
    await this.txHost.tx.query(
      `UPDATE wallet SET closed_at = now(), updated_at = now()
       WHERE entity_type = 'agent' AND entity_id = $1 AND closed_at IS NULL`,
      [passId],
    );
  }

  /** Whether an open wallet has this address. */
  async isOpen(address: string): Promise<{ exists: boolean; closed: boolean }> {
    const rows: { closed: boolean }[] = await this.dataSource.query(
      'SELECT closed_at IS NOT NULL AS closed FROM wallet WHERE address_hash = $1',
      [address],
    );
    return { exists: rows.length > 0, closed: rows[0]?.closed ?? false };
  }
}

interface WalletRow {
  address_hash: string;
  entity_type: WalletEntityType;
  entity_id: string;
  entity_name: string;
  purpose: string;
  currency: string;
  description: string;
  metadata: Record<string, unknown>;
  organization_id: number | null;
  project_id: number | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface RolesRow {
  organization_role: Role | null;
  project_role: Role | null;
  access_denied: boolean;
  applied_version: string | null;
}

function walletFromRow(row: WalletRow): Wallet {
  const wallet = new Wallet();
  wallet.addressHash = row.address_hash;
  wallet.entityType = row.entity_type;
  wallet.entityId = row.entity_id;
  wallet.entityName = row.entity_name;
  wallet.purpose = row.purpose;
  wallet.currency = row.currency;
  wallet.description = row.description;
  wallet.metadata = row.metadata;
  wallet.organizationId = row.organization_id;
  wallet.projectId = row.project_id;
  wallet.closedAt = row.closed_at === null ? null : new Date(row.closed_at);
  wallet.createdAt = new Date(row.created_at);
  wallet.updatedAt = new Date(row.updated_at);
  return wallet;
}

function withRoles(row: WalletRow & RolesRow): WalletWithRoles {
  return {
    wallet: walletFromRow(row),
    roles: {
      organizationRole: row.organization_role,
      projectRole: row.project_role,
      accessDenied: row.access_denied,
      appliedVersion: Number(row.applied_version ?? 0),
    },
  };
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { newWalletAddress } from './address.js';
import { Wallet, type WalletEntityType } from './wallet.entity.js';

export type NewWallet = Pick<
  Wallet,
  'entityType' | 'entityId' | 'entityName' | 'purpose' | 'currency' | 'metadata'
> & { description?: string };

@Injectable()
export class WalletsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Opens a wallet unless the entity already has one for the purpose.
   * @returns the new wallet, or null when one existed (nothing written)
   */
  async insertIfAbsent(wallet: NewWallet, manager: EntityManager): Promise<Wallet | null> {
    const rows: { address_hash: string }[] = await manager.query(
      `INSERT INTO wallet
         (address_hash, entity_type, entity_id, entity_name, purpose, currency, description, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (entity_type, entity_id, purpose) DO NOTHING
       RETURNING address_hash`,
      [
        newWalletAddress(),
        wallet.entityType,
        wallet.entityId,
        wallet.entityName,
        wallet.purpose,
        wallet.currency,
        wallet.description ?? '',
        JSON.stringify(wallet.metadata),
      ],
    );
    if (rows.length === 0) return null;
    return manager.findOneByOrFail(Wallet, { addressHash: rows[0].address_hash });
  }

  /**
   * Wallets a user may see: their own, and those of organizations they belong to
   * (ARCHITECTURE § 4 "Who may move money"), optionally of one entity type; oldest first.
   */
  findVisibleTo(userId: string, entityType?: WalletEntityType): Promise<Wallet[]> {
    const qb = this.dataSource
      .getRepository(Wallet)
      .createQueryBuilder('w')
      .where(
        `((w.entity_type = 'user' AND w.entity_id = :userId)
          OR (w.entity_type = 'organization' AND w.entity_id IN (
            SELECT m.organization_id::text FROM organization_member m
            WHERE m.user_id = CAST(:userId AS uuid) AND m.role IS NOT NULL)))`,
        { userId },
      )
      .orderBy('w.created_at', 'ASC');
    if (entityType) qb.andWhere('w.entity_type = :entityType', { entityType });
    return qb.getMany();
  }
}

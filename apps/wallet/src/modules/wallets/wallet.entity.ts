import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const WALLET_ENTITY_TYPES = ['user', 'organization', 'project', 'agent'] as const;
export type WalletEntityType = (typeof WALLET_ENTITY_TYPES)[number];

/**
 * A wallet (contract § "Wallet"), identified by its address hash: `0x` + 40 lower-case hex
 * characters, random (ARCHITECTURE § 4 "Ids"). One wallet per (entity, purpose).
 */
@Entity('wallet')
@Index('wallet_entity_purpose_key', ['entityType', 'entityId', 'purpose'], { unique: true })
export class Wallet {
  @PrimaryColumn({ type: 'char', length: 42 })
  addressHash!: string;

  @Column('text')
  entityType!: WalletEntityType;

  @Column('text')
  entityId!: string;

  @Column('text')
  entityName!: string;

  @Column('text', { default: 'general' })
  purpose!: string;

  @Column('text', { default: 'CREDITS' })
  currency!: string;

  @Column('text', { default: '' })
  description!: string;

  @Column('jsonb', { default: {} })
  metadata!: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

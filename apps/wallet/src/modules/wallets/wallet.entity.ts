import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

export const WALLET_ENTITY_TYPES = ['user', 'organization', 'project', 'agent'] as const;
export type WalletEntityType = (typeof WALLET_ENTITY_TYPES)[number];

/**
 * A wallet (docs/api.md § Wallet), identified by its address hash: `0x` + 40 lower-case hex
 * characters, random (docs/architecture.md § Ids). One wallet per (entity, purpose).
 *
 * `organizationId` / `projectId` say whose memberships govern access: set for organization
 * wallets (organization), project wallets and agent wallets (both), from the org events, never
 * from client input. A closed wallet (its organization, project or agent was deleted) keeps its
 * ledger history and balances but moves no money any more.
 */
@Entity('wallet')
@Index('wallet_entity_purpose_key', ['entityType', 'entityId', 'purpose'], { unique: true })
@Index('wallet_organization_idx', ['organizationId'])
@Index('wallet_project_idx', ['projectId'])
@Check('wallet_entity_type_check', `"entity_type" IN ('user', 'organization', 'project', 'agent')`)
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

  @Column('int', { nullable: true })
  organizationId!: number | null;

  @Column('int', { nullable: true })
  projectId!: number | null;

  @Column('timestamptz', { nullable: true })
  closedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

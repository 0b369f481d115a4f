import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Asset } from '../assets/asset.entity.js';
import { Wallet } from '../wallets/wallet.entity.js';

export const TRANSFER_STATUSES = [
  'pending_sender_verification',
  'pending_recipient_acceptance',
  'completed',
  'rejected',
  'expired',
] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_FAILURE_REASONS = [
  'rejected_by_sender',
  'rejected_by_recipient',
  'too_many_attempts',
  'expired',
] as const;
export type TransferFailureReason = (typeof TRANSFER_FAILURE_REASONS)[number];

/**
 * A two-party transfer request (docs/architecture.md § Transfer requests), two-phase like a
 * TigerBeetle pending transfer: `verify_sender` reserves the amount (`balance.held`), `accept`
 * posts it, `reject` / expiry / too many wrong codes void it. Codes are stored only as an HMAC;
 * `code_expires_at` bounds the current phase, after which the sweeper expires the request.
 */
@Entity('transfer_request')
@Index('transfer_request_from_idx', ['fromWallet', 'createdAt'])
@Index('transfer_request_to_idx', ['toWallet', 'createdAt'])
@Index('transfer_request_initiator_idx', ['initiatedBy', 'createdAt'])
@Index('transfer_request_open_idx', ['codeExpiresAt'], {
  where: `status IN ('pending_sender_verification', 'pending_recipient_acceptance')`,
})
@Check(
  'transfer_request_status_check',
  `"status" IN ('pending_sender_verification', 'pending_recipient_acceptance', 'completed', 'rejected', 'expired')`,
)
@Check('transfer_request_amount_positive', '"amount" > 0')
@Check('transfer_request_distinct_wallets', '"from_wallet" <> "to_wallet"')
export class TransferRequest {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'char', length: 42 })
  fromWallet!: string;

  @Column({ type: 'char', length: 42 })
  toWallet!: string;

  @Column('text')
  asset!: string;

  @Column('numeric', { precision: 38, scale: 8 })
  amount!: string;

  @Column('text', { default: '' })
  description!: string;

  @Column('text')
  status!: TransferStatus;

  @Column('text', { nullable: true })
  failureReason!: TransferFailureReason | null;

  /** The user who created the request and receives the sender code. */
  @Column('uuid')
  initiatedBy!: string;

  /** HMAC of the current phase's code; null once no code is pending. */
  @Column('text', { nullable: true })
  codeHmac!: string | null;

  @Column('timestamptz')
  codeExpiresAt!: Date;

  /** Wrong codes entered in the current phase. */
  @Column('int', { default: 0 })
  attempts!: number;

  @Column('uuid', { nullable: true })
  journalEntryId!: string | null;

  @Column('uuid', { nullable: true })
  decidedBy!: string | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;

  @ManyToOne(() => Wallet, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({
    name: 'from_wallet',
    referencedColumnName: 'addressHash',
    foreignKeyConstraintName: 'transfer_request_from_wallet_fk',
  })
  from?: Wallet;

  @ManyToOne(() => Wallet, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({
    name: 'to_wallet',
    referencedColumnName: 'addressHash',
    foreignKeyConstraintName: 'transfer_request_to_wallet_fk',
  })
  to?: Wallet;

  @ManyToOne(() => Asset, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'asset', foreignKeyConstraintName: 'transfer_request_asset_fk' })
  assetRef?: Asset;
}

import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Asset } from '../assets/asset.entity.js';
import { Wallet } from '../wallets/wallet.entity.js';

/**
 * The balance of one wallet in one asset. `available` can be spent; `held` is reserved by
 * transfer requests awaiting the recipient (docs/architecture.md § Transfer requests). Their sum
 * always equals the sum of the wallet's postings in the asset. Neither may go below zero: the
 * CHECK constraints hold even against a bug in the code that writes them.
 *
 * Only the ledger functions (`ledger/sql/*.sql`) change these rows. The issuance
 * account has no row: it may go negative and would be a single hot row for every credit.
 */
@Entity('balance')
@Check('balance_available_non_negative', '"available" >= 0')
@Check('balance_held_non_negative', '"held" >= 0')
export class Balance {
  @PrimaryColumn({ type: 'char', length: 42 })
  walletAddress!: string;

  @PrimaryColumn('text')
  asset!: string;

  @Column('numeric', { precision: 38, scale: 8, default: 0 })
  available!: string;

  @Column('numeric', { precision: 38, scale: 8, default: 0 })
  held!: string;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;

  @ManyToOne(() => Wallet, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({
    name: 'wallet_address',
    referencedColumnName: 'addressHash',
    foreignKeyConstraintName: 'balance_wallet_fk',
  })
  wallet?: Wallet;

  @ManyToOne(() => Asset, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'asset', foreignKeyConstraintName: 'balance_asset_fk' })
  assetRef?: Asset;
}

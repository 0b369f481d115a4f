import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';

/** An asset wallets can hold (docs/architecture.md § Assets and conversion), seeded from config. */
@Entity('asset')
export class Asset {
  @PrimaryColumn('text')
  code!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}

/**
 * A conversion rate, one direction: `to_amount = trunc(from_amount × rate, 8)`. Mirrored from
 * `WALLET_CONVERSION_RATES` at boot; read by the ledger function in the same statement that
 * converts, so a conversion never mixes two rates.
 */
@Entity('conversion_rate')
@Check('conversion_rate_positive', '"rate" > 0')
@Check('conversion_rate_distinct_assets', '"from_asset" <> "to_asset"')
export class ConversionRate {
  @PrimaryColumn('text')
  fromAsset!: string;

  @PrimaryColumn('text')
  toAsset!: string;

  @Column('numeric', { precision: 38, scale: 18 })
  rate!: string;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'from_asset', foreignKeyConstraintName: 'conversion_rate_from_asset_fk' })
  from?: Asset;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'to_asset', foreignKeyConstraintName: 'conversion_rate_to_asset_fk' })
  to?: Asset;
}

import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const JOURNAL_ENTRY_TYPES = [
  'transfer',
  'conversion',
  'debit',
  'credit',
  'transfer_request',
] as const;
export type JournalEntryType = (typeof JOURNAL_ENTRY_TYPES)[number];

/**
 * One money movement (double entry): its postings (`posting`) sum to zero per asset. The
 * columns besides the postings keep what the command asked for, so an idempotent retry can
 * answer with the original result. Append-only (a trigger refuses UPDATE and DELETE).
 *
 * Idempotency: `(idempotency_scope, idempotency_key)` is unique; the scope is
 * `debit:<address>` / `credit:<address>` for a `reference_id`, `transact:<principal>` for an
 * `Idempotency-Key`; `request_fingerprint` (SHA-256 of the request) tells a retry from a reuse.
 */
@Entity('journal_entry')
@Index('journal_entry_idempotency_key', ['idempotencyScope', 'idempotencyKey'], {
  unique: true,
  where: 'idempotency_key IS NOT NULL',
})
@Index('journal_entry_transfer_request_key', ['transferRequestId'], {
  unique: true,
  where: 'transfer_request_id IS NOT NULL',
})
@Check(
  'journal_entry_type_check',
  `"type" IN ('transfer', 'conversion', 'debit', 'credit', 'transfer_request')`,
)
@Check('journal_entry_amounts_positive', '"amount" > 0 AND "to_amount" > 0')
export class JournalEntry {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  type!: JournalEntryType;

  /** Source wallet; null for credits (the issuance account pays). */
  @Column({ type: 'char', length: 42, nullable: true })
  fromWallet!: string | null;

  /** Destination wallet; null for debits (the issuance account receives). */
  @Column({ type: 'char', length: 42, nullable: true })
  toWallet!: string | null;

  @Column('text')
  fromAsset!: string;

  @Column('text')
  toAsset!: string;

  @Column('numeric', { precision: 38, scale: 8 })
  amount!: string;

  /** What the destination received: `amount`, or the converted amount. */
  @Column('numeric', { precision: 38, scale: 8 })
  toAmount!: string;

  /** Conversion rate applied, or null. */
  @Column('numeric', { precision: 38, scale: 18, nullable: true })
  rate!: string | null;

  @Column('text', { default: '' })
  description!: string;

  @Column('jsonb', { default: {} })
  metadata!: Record<string, unknown>;

  /** The client's `reference_id` (debits and credits). */
  @Column('text', { nullable: true })
  referenceId!: string | null;

  @Column('text', { nullable: true })
  idempotencyScope!: string | null;

  @Column('text', { nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { nullable: true })
  requestFingerprint!: string | null;

  /** Principal id of the caller (user or agent), null for system movements. */
  @Column('text', { nullable: true })
  initiatedBy!: string | null;

  @Column('uuid', { nullable: true })
  transferRequestId!: string | null;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}

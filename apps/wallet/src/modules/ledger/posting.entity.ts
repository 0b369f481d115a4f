import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { JournalEntry } from './journal-entry.entity.js';

/**
 * The issuance account: counterpart of credits, debits and conversions
 * (docs/architecture.md § Decisions where the contract is silent).
 */
export const ISSUANCE_ACCOUNT = '0x0000000000000000000000000000000000000000';

/**
 * One leg of a journal entry: a signed amount on one account (a wallet, or the issuance
 * account) in one asset. `balance_after` is the wallet's ledger balance (available + held) in
 * the asset right after this posting, null on the issuance account. A statement-level trigger
 * refuses any INSERT whose postings do not sum to zero per (entry, asset); another refuses
 * UPDATE and DELETE.
 *
 * No foreign key to `wallet`: its row lock (FOR KEY SHARE) would be taken by every posting of a
 * hot wallet; the ledger function checks the wallets instead, and `balance` has the key.
 */
@Entity('posting')
@Index('posting_wallet_history_idx', ['walletAddress', 'id'])
@Index('posting_entry_idx', ['entryId'])
@Check('posting_amount_non_zero', '"amount" <> 0')
export class Posting {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column('uuid')
  entryId!: string;

  @Column({ type: 'char', length: 42 })
  walletAddress!: string;

  @Column('text')
  asset!: string;

  @Column('numeric', { precision: 38, scale: 8 })
  amount!: string;

  @Column('numeric', { precision: 38, scale: 8, nullable: true })
  balanceAfter!: string | null;

  /** The other wallet of a transfer; null when the other side is the issuance account. */
  @Column({ type: 'char', length: 42, nullable: true })
  counterpartyAddress!: string | null;

  @Column('timestamptz')
  createdAt!: Date;

  @ManyToOne(() => JournalEntry, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'posting_entry_fk' })
  entry?: JournalEntry;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One single-use recovery code of an account with two-factor on (10 per set, shown once).
 * Stored as HMAC-SHA256(`AUTH_CODE_SECRET`, `userId:code`); `usedAt` marks it spent.
 */
@Entity('recovery_code')
export class RecoveryCode {
  @PrimaryColumn('uuid')
  userId!: string;

  @PrimaryColumn({ type: 'char', length: 64 })
  codeHash!: string;

  @Column('timestamptz', { nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}

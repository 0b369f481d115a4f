import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A pending second step of a login (docs/auth.md § Two-factor login): issued when the password
 * of an account with two-factor on was right, redeemed once at `POST /oauth/token/mfa` with a
 * code. Only the token's SHA-256 is stored. Bound to the client application of the login.
 */
@Entity('mfa_challenge')
@Index('mfa_challenge_expires_idx', ['expiresAt'])
export class MfaChallenge {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'char', length: 64, unique: true })
  tokenHash!: string;

  @Column('uuid')
  userId!: string;

  @Column('uuid')
  appId!: string;

  /** Wrong codes presented with this challenge; it dies at `MFA_CHALLENGE_MAX_ATTEMPTS`. */
  @Column('int', { default: 0 })
  failedAttempts!: number;

  @Column('timestamptz')
  expiresAt!: Date;

  /** Set when a code redeemed it (single use) or it was used up by wrong codes. */
  @Column('timestamptz', { nullable: true })
  consumedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A session: one refresh token family (OAuth 2.0 Security BCP § 4.14). Its id is the `sid`
 * claim of every access token issued in it. Only the current refresh token's SHA-256 is kept
 * (single use, rotated on each refresh); the previous one is remembered for replay detection
 * and the multi-tab grace window (ARCHITECTURE § 3).
 */
@Entity('refresh_token_family')
@Index('refresh_token_family_user_idx', ['userId'])
export class RefreshTokenFamily {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  userId!: string;

  @Column('uuid')
  appId!: string;

  @Column({ type: 'char', length: 64, unique: true })
  currentTokenHash!: string;

  @Column({ type: 'char', length: 64, nullable: true, unique: true })
  previousTokenHash!: string | null;

  /** Rotations so far. */
  @Column('int', { default: 0 })
  generation!: number;

  @Column('timestamptz', { nullable: true })
  rotatedAt!: Date | null;

  /** The pair answered to the last rotation, encrypted, replayed within the grace window. */
  @Column('text', { nullable: true })
  graceResponse!: string | null;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;

  @Column('text', { nullable: true })
  revokedReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type UserStatus = 'pending_activation' | 'active' | 'disabled';

/**
 * An account. Its username is an email (stored lower case) or a phone number in E.164.
 * Ids are UUIDs (docs/architecture.md § Ids).
 */
@Entity('app_user')
@Index('app_user_email_key', ['email'], { unique: true, where: 'email IS NOT NULL' })
@Index('app_user_phone_key', ['phone'], { unique: true, where: 'phone IS NOT NULL' })
export class User {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { nullable: true })
  email!: string | null;

  @Column('text', { nullable: true })
  phone!: string | null;

  @Column('text')
  passwordHash!: string;

  @Column('text')
  status!: UserStatus;

  @Column('text', { default: '' })
  firstName!: string;

  @Column('text', { default: '' })
  lastName!: string;

  @Column('timestamptz', { nullable: true })
  activatedAt!: Date | null;

  /**
   * Two-factor authentication is on (a confirmed TOTP authenticator): login then needs a
   * second step (docs/auth.md § Two-factor authentication). Kept here so the login lookup
   * reads it with the password hash, at no extra cost for everyone else.
   */
  @Column('boolean', { default: false })
  twoFactorEnabled!: boolean;

  /** Grows with every change of `twoFactorEnabled` (`auth.user.two_factor_changed` version). */
  @Column('int', { default: 0 })
  twoFactorVersion!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

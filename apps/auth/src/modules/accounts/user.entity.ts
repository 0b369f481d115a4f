import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

export type UserStatus = 'pending_activation' | 'active' | 'disabled';

/**
 * An account. Its username is an email (kept as typed) or a phone number in E.164; accounts are
 * told apart by `usernameKey` (docs/auth.md § Usernames). Ids are UUIDs (docs/architecture.md §
 * Ids).
 */
@Entity('app_user')
@Check('app_user_username_key_present', `"username_key" IS NOT NULL OR "status" = 'disabled'`)
@Index('app_user_username_key', ['usernameKey'], {
  unique: true,
  where: 'username_key IS NOT NULL',
})
export class User {
  @PrimaryColumn('uuid')
  id!: string;

  /** The email address as typed at registration (trimmed); null for phone accounts. */
  @Column('text', { nullable: true })
  email!: string | null;

  /** E.164; null for email accounts. */
  @Column('text', { nullable: true })
  phone!: string | null;

  /**
   * The identity of the username (`usernameLookupKey` of `@wp/identity`): the folded local part
   * and IDNA domain of the email, or the E.164 number. Unique: one account per key. Null only for
   * an account set aside because its key was another's when keys were introduced
   * (`username_conflict`, docs/auth.md § Usernames).
   */
  @Column('text', { nullable: true })
  usernameKey!: string | null;

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

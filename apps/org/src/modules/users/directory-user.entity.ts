import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * Read model of auth's users (docs/architecture.md § Data ownership and events), fed by
 * `auth.user.*` events: names and emails to show next to memberships. Never used to decide whether
 * an account exists — that question goes to auth synchronously.
 */
@Entity('directory_user')
@Index('directory_user_email_idx', ['email'])
export class DirectoryUser {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { nullable: true })
  email!: string | null;

  @Column('text', { nullable: true })
  phone!: string | null;

  @Column('text', { default: '' })
  firstName!: string;

  @Column('text', { default: '' })
  lastName!: string;

  @Column('text')
  status!: string;

  /**
   * The account has two-factor authentication on (`auth.user.two_factor_changed`), for the
   * organization two-factor policy (docs/org.md § Two-factor policy).
   */
  @Column('boolean', { default: false })
  twoFactorEnabled!: boolean;

  /** Version of the last `auth.user.two_factor_changed` applied (older ones are ignored). */
  @Column('int', { default: 0 })
  twoFactorVersion!: number;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

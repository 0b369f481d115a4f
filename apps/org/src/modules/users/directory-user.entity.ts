import { DirectoryUserColumns } from '@wp/user-directory';
import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * Read model of auth's users (docs/architecture.md § Data ownership and events), fed by
 * `auth.user.*` events: names and emails to show next to memberships. Never used to decide whether
 * an account exists — that question goes to auth synchronously. The snapshot's columns are
 * @wp/user-directory's; the two-factor state and the row's own times are org's.
 */
@Entity('directory_user')
@Index('directory_user_email_idx', ['email'])
export class DirectoryUser extends DirectoryUserColumns {
  @PrimaryColumn('uuid')
  id!: string;

  /**
   * The account has two-factor authentication on (`auth.user.two_factor_changed`), for the
   * organization two-factor policy (docs/org.md § Two-factor policy).
   */
  @Column('boolean', { default: false })
  twoFactorEnabled!: boolean;

  /** Version of the last `auth.user.two_factor_changed` applied (older ones are ignored). */
  @Column('int', { default: 0 })
  twoFactorVersion!: number;

  /**
   * `occurredAt` of the last `auth.user.*` snapshot applied: an older one arriving later is
   * ignored (`upsertIfNewer`). NULL for a row seeded by add_user or by a two-factor change
   * before any snapshot (any snapshot then applies).
   */
  @Column('timestamptz', { nullable: true })
  occurredAt!: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

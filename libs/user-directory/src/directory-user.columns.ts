import { Column } from 'typeorm';

/**
 * The columns every service's `directory_user` read model holds from auth's `auth.user.*`
 * snapshots (docs/architecture.md § Data ownership and events). Each service declares its own
 * entity on top (`@Entity('directory_user')`, its primary key, its own extra columns) and owns the
 * table and its migrations; only the snapshot's columns are shared.
 */
export abstract class DirectoryUserColumns {
  @Column('text', { nullable: true })
  email!: string | null;

  @Column('text', { nullable: true })
  phone!: string | null;

  @Column('text', { default: '' })
  firstName!: string;

  @Column('text', { default: '' })
  lastName!: string;

  /** `pending_activation`, `active` or `disabled`, as auth's snapshot says. */
  @Column('text')
  status!: string;
}

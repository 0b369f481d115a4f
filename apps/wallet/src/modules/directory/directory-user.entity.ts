import { DirectoryUserColumns } from '@wp/user-directory';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Read model of accounts (`auth.user.registered` / `.activated` / `.updated`,
 * docs/architecture.md § Data ownership and events): where transfer-request codes are mailed.
 * The snapshot's columns are @wp/user-directory's; `occurred_at` of the last applied event orders
 * redeliveries (the snapshot carries no version), and every row comes from an event.
 */
@Entity('directory_user')
export class DirectoryUser extends DirectoryUserColumns {
  @PrimaryColumn('uuid')
  userId!: string;

  @Column('timestamptz')
  occurredAt!: Date;
}

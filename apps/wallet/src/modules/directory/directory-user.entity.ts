import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Read model of accounts (`auth.user.registered` / `.activated` / `.updated`,
 * docs/architecture.md § Data ownership and events): where transfer-request codes are mailed.
 * `occurred_at` of the last applied event orders redeliveries (the snapshot carries no version).
 */
@Entity('directory_user')
export class DirectoryUser {
  @PrimaryColumn('uuid')
  userId!: string;

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

  @Column('timestamptz')
  occurredAt!: Date;
}

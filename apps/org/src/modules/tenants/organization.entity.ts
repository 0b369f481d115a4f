import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** An organization: the tenant. Integer identity, serialized as a string in envelopes. */
@Entity('organization')
export class Organization {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column('text')
  name!: string;

  /**
   * Security policy: members must have two-factor authentication on
   * (docs/org.md § Two-factor policy). Set by an OWNER.
   */
  @Column('boolean', { default: false })
  requireTwoFactor!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Role } from '@wp/contracts';

/**
 * A user's role in an organization. `version` grows with every change and travels in
 * `org.membership.changed` so consumers ignore stale redeliveries.
 */
@Entity('organization_membership')
@Index('organization_membership_user_idx', ['userId'])
export class OrganizationMembership {
  @PrimaryColumn('int')
  organizationId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @Column('text')
  role!: Role;

  @Column('bigint', {
    default: 1,
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  version!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

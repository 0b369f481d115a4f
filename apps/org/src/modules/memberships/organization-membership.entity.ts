import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import type { Role } from '@wp/contracts';
import { Organization } from '../tenants/organization.entity.js';

/**
 * A user's role in an organization. `version` is the version of the last
 * `org.membership.changed` about this (organization, user) pair (see `MembershipVersion`).
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

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;
}

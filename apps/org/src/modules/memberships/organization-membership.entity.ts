import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from '../tenants/organization.entity.js';
import { MembershipColumns } from './membership.columns.js';

/**
 * A user's role in an organization (role, version and times: the shared membership columns).
 */
@Entity('organization_membership')
@Index('organization_membership_user_idx', ['userId'])
export class OrganizationMembership extends MembershipColumns {
  @PrimaryColumn('int')
  organizationId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;
}

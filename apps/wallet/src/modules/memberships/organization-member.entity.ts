import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '@wp/contracts';

/**
 * Read model of organization memberships, fed by `org.membership.changed`
 * (docs/architecture.md § Data ownership and events): who may see and move an organization's
 * wallets. `role` null is a tombstone of a removed member, kept so a stale redelivery cannot bring
 * the membership back (`version` decides).
 */
@Entity('organization_member')
@Index('organization_member_user_idx', ['userId'])
export class OrganizationMember {
  @PrimaryColumn('int')
  organizationId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @Column('text', { nullable: true })
  role!: Role | null;

  @Column('bigint')
  version!: string;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '@wp/contracts';

/**
 * Auth's read model of memberships (`org.membership.changed`): who may read a pass's activity.
 * Organization-level rows have `project_id` 0. Written by plain SQL in `SentinelPassRepository`;
 * the entity describes the table for the schema drift check.
 */
@Entity('membership')
export class Membership {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'PK_membership' })
  userId!: string;

  @PrimaryColumn('integer', { primaryKeyConstraintName: 'PK_membership' })
  organizationId!: number;

  @PrimaryColumn('integer', { primaryKeyConstraintName: 'PK_membership' })
  projectId!: number;

  /** Null once the membership ended. */
  @Column('text', { nullable: true })
  role!: Role | null;

  @Column('boolean', { default: false })
  accessDenied!: boolean;

  @Column('integer')
  version!: number;
}

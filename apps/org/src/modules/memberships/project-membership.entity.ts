import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { Project } from '../tenants/project.entity.js';
import { MembershipColumns } from './membership.columns.js';

/**
 * A user's explicit role in one project (docs/api.md § Projects, members). `accessDenied` true is
 * the "access denied" state of the contract's Project access transitions: the row and its `role`
 * are kept so `restore_access` can give the previous role back (while access is denied, `role`
 * is the role to restore). A project member need not be an organization member (`project_only`).
 */
@Entity('project_membership')
@Index('project_membership_user_idx', ['userId'])
@Index('project_membership_organization_user_idx', ['organizationId', 'userId'])
export class ProjectMembership extends MembershipColumns {
  @PrimaryColumn('int')
  projectId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @Column('int')
  organizationId!: number;

  @Column('boolean', { default: false })
  accessDenied!: boolean;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}

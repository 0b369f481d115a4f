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
import { Project } from '../tenants/project.entity.js';

/**
 * A user's explicit role in one project (docs/api.md § Projects, members). `accessDenied` true is
 * the "access denied" state of the contract's Project access transitions: the row and its `role`
 * are kept so `restore_access` can give the previous role back. A project member need not be an
 * organization member (`project_only`).
 */
@Entity('project_membership')
@Index('project_membership_user_idx', ['userId'])
@Index('project_membership_organization_user_idx', ['organizationId', 'userId'])
export class ProjectMembership {
  @PrimaryColumn('int')
  projectId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @Column('int')
  organizationId!: number;

  /** The project role; while access is denied, the role to restore. */
  @Column('text')
  role!: Role;

  @Column('boolean', { default: false })
  accessDenied!: boolean;

  @Column('bigint', {
    default: 1,
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  version!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}

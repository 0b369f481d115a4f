import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { Organization } from '../tenants/organization.entity.js';
import { Project } from '../tenants/project.entity.js';

/**
 * A project pinned in a user's sidebar (docs/api.md § User settings: `pinned_items`, shared by
 * every client). `position` is 0..n-1 per (user, organization) in the order of the last
 * `pinned_project_ids`. Deleting the project (or its organization) deletes the pin in the same
 * transaction (`ON DELETE CASCADE`); pins of projects the user can no longer access are left
 * out when read (docs/org.md § User settings).
 */
@Entity('pinned_project')
@Index('pinned_project_user_organization_idx', ['userId', 'organizationId', 'position'])
// the cascades from project and organization deletes look pins up by these
@Index('pinned_project_project_idx', ['projectId'])
@Index('pinned_project_organization_idx', ['organizationId'])
export class PinnedProject {
  @PrimaryColumn('uuid')
  userId!: string;

  @PrimaryColumn('int')
  projectId!: number;

  @Column('int')
  organizationId!: number;

  @Column('int')
  position!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '@wp/contracts';

/**
 * Read model of project memberships, fed by `org.membership.changed` with a `projectId`
 * (docs/architecture.md § Data ownership and events): who may see and move a project's (and its
 * agents') wallets. `role` null is a tombstone; `access_denied` true hides the project from a
 * member whatever their role (org OWNER/ADMIN excepted, see `effectiveProjectRole`); `version`
 * drops stale redeliveries.
 */
@Entity('project_member')
@Index('project_member_user_idx', ['userId'])
export class ProjectMember {
  @PrimaryColumn('int')
  projectId!: number;

  @PrimaryColumn('uuid')
  userId!: string;

  @Column('int')
  organizationId!: number;

  @Column('text', { nullable: true })
  role!: Role | null;

  @Column('boolean', { default: false })
  accessDenied!: boolean;

  @Column('bigint')
  version!: string;
}

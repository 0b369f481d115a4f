import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { Organization } from './organization.entity.js';

const bigintAsNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/**
 * A project inside an organization (docs/api.md § Project). One per organization is the default.
 *
 * The list columns (`members_count`, `tools_count`, `notebooks_count`, `has_wallet`,
 * `last_activity_at`) are kept on the row so every filter and sort of `GET P` is plain SQL over
 * indexed columns (docs/org.md § Project list):
 * - `members_count`: explicit project members whose access is not denied, recomputed in the
 *   transaction of every project membership change;
 * - `tools_count`: the project's Sentinel Passes (studio tools), kept by the Sentinel Pass
 *   feature (docs/org.md § Sentinel Pass); 0 until then;
 * - `notebooks_count`: 0 until a notebooks producer exists;
 * - `has_wallet`: set from `wallet.wallet.created` (entity type `project`);
 * - `last_activity_at`: touched by every write to the project or its keys, members, invitations.
 *
 * The name indexes (`lower(name) COLLATE "C"` btree and a pg_trgm GIN for substring search) are
 * expression indexes TypeORM cannot declare; they live in the migration and are marked
 * `synchronize: false` here so the drift check leaves them alone.
 */
@Entity('project')
@Index('project_organization_idx', ['organizationId'])
@Index('project_one_default_per_organization', ['organizationId'], {
  unique: true,
  where: 'is_default',
})
@Index('project_organization_created_idx', ['organizationId', 'createdAt'])
@Index('project_organization_updated_idx', ['organizationId', 'updatedAt'])
@Index('project_organization_activity_idx', ['organizationId', 'lastActivityAt'])
@Index('project_organization_members_idx', ['organizationId', 'membersCount'])
@Index('project_organization_tools_idx', ['organizationId', 'toolsCount'])
@Index('project_organization_notebooks_idx', ['organizationId', 'notebooksCount'])
@Index('project_organization_lower_name_idx', { synchronize: false })
@Index('project_name_trgm_idx', { synchronize: false })
export class Project {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column('int')
  organizationId!: number;

  @Column('text')
  name!: string;

  @Column('boolean', { default: false })
  isDefault!: boolean;

  @Column('uuid', { nullable: true })
  createdBy!: string | null;

  @Column('int', { default: 0 })
  membersCount!: number;

  @Column('int', { default: 0 })
  toolsCount!: number;

  @Column('int', { default: 0 })
  notebooksCount!: number;

  @Column('boolean', { default: false })
  hasWallet!: boolean;

  @Column('timestamptz', { default: () => 'now()' })
  lastActivityAt!: Date;

  /** Version of the last `org.project.keys.changed`; bumped (row-locked) by every key change. */
  @Column('bigint', { default: 0, transformer: bigintAsNumber })
  // jscpd:ignore-start: the row times and the organization relation every organization-owned entity declares.
  keysVersion!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;
  // jscpd:ignore-end
}

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
  type ValueTransformer,
} from 'typeorm';
import { Project } from '../tenants/project.entity.js';

/** `bigint` columns arrive as strings from pg; counts stay far below 2^53. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | number | null) => (value === null ? 0 : Number(value)),
};

/**
 * A Sentinel Pass (docs/api.md § Sentinel Pass (unified asset format);
 * docs/architecture.md § Decisions where the contract is silent "Sentinel Pass key"): a credential
 * scoped to one project. The id is the agent's user id everywhere. The key is never stored:
 * `key_hash` = `hashSentinelKey(key)` (SHA-256 hex), the value `org.sentinel_pass.changed` carries
 * to auth. `version` numbers those events per pass. `usage_count` / `last_used_at` come from the
 * `*.activity.recorded` events (`api_request`).
 */
@Entity('sentinel_pass')
@Index('sentinel_pass_project_idx', ['projectId', 'createdAt'])
@Index('sentinel_pass_organization_idx', ['organizationId', 'projectId'])
// GIN index on `tags` (the `tags` filter is `tags @> …`): written in the migration, which
// TypeORM cannot declare; `synchronize: false` keeps the drift check away from it.
@Index('sentinel_pass_tags_gin_idx', { synchronize: false })
export class SentinelPass {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('int')
  organizationId!: number;

  @Column('int')
  projectId!: number;

  @Column('text')
  title!: string;

  @Column('text', { default: '' })
  description!: string;

  /** Always `project` (the only owner kind the contract names). */
  @Column('text', { default: 'project' })
  entityType!: string;

  @Column('text', { default: 'api_key' })
  credentialType!: string;

  @Column('text', { array: true, default: () => "'{}'" })
  permissions!: string[];

  @Column('text', { array: true, default: () => "'{}'" })
  allowedReferers!: string[];

  @Column('text', { array: true, default: () => "'{}'" })
  scopes!: string[];

  @Column('text', { array: true, default: () => "'{}'" })
  tags!: string[];

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;

  @Column('boolean', { default: true })
  active!: boolean;

  /** `hashSentinelKey(key)`: 64 lowercase hex characters. */
  @Column('text', { unique: true })
  keyHash!: string;

  @Column('timestamptz', { nullable: true })
  lastRotated!: Date | null;

  @Column('bigint', { default: 0, transformer: bigintAsNumber })
  usageCount!: number;

  @Column('timestamptz', { nullable: true })
  lastUsedAt!: Date | null;

  /** Version of the last `org.sentinel_pass.changed` (1 at creation, +1 per change). */
  @Column('int', { default: 1 })
  version!: number;

  /**
   * One more whenever an active pass becomes inactive or its key changes (`credentialEpochEnds`,
   * the rule auth applies too); agent tokens carry it in their `sid` (`agentSessionId`).
   */
  @Column('int', { default: 0 })
  credentialEpoch!: number;

  @Column('uuid', { nullable: true })
  createdBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}

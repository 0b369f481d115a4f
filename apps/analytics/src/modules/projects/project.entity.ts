import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A project as analytics knows it from `org.project.*` events
 * (docs/architecture.md § Data ownership and events). `keysVersion` is the version of the last
 * applied `org.project.keys.changed` (-1: none yet); a deleted project is terminal: its keys are
 * gone and its data is purged in the background.
 */
@Entity('analytics_project')
@Index('analytics_project_updated_at_idx', ['updatedAt'])
export class AnalyticsProjectEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @Column('integer')
  organizationId!: number;

  @Column('integer', { default: -1 })
  keysVersion!: number;

  @Column('timestamptz', { nullable: true })
  deletedAt!: Date | null;

  @Column('timestamptz', { nullable: true })
  purgedAt!: Date | null;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}

/** One key pair of a project: the secret only as its SHA-256 (hex), as the event carries it. */
@Entity('project_api_key')
@Index('project_api_key_project_idx', ['projectId'])
export class ProjectApiKeyEntity {
  @PrimaryColumn('text')
  publicKey!: string;

  @Column('integer')
  projectId!: number;

  @Column('text')
  keyId!: string;

  @Column('char', { length: 64 })
  secretKeySha256!: string;

  @Column('timestamptz', { nullable: true })
  expiresAt!: Date | null;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A Langfuse trace (`commons.yml` Trace). `rollup` remembers what the trace last contributed to
 * the daily rollups, so a change can be applied as a delta (docs/analytics.md § Storage).
 */
@Entity('trace')
/** Also serves the default order (timestamp, id) without a sort. */
@Index('trace_project_timestamp_idx', ['projectId', 'timestamp', 'id'])
@Index('trace_project_user_idx', ['projectId', 'userId', 'timestamp'])
@Index('trace_project_name_idx', ['projectId', 'name', 'timestamp'])
@Index('trace_project_session_idx', ['projectId', 'sessionId', 'timestamp'])
@Index('trace_project_release_idx', ['projectId', 'release', 'timestamp'])
@Index('trace_project_version_idx', ['projectId', 'version', 'timestamp'])
@Index('trace_project_environment_idx', ['projectId', 'environment', 'timestamp'])
/** GIN over tags (`tags @> $1`), created by hand in the migration: TypeORM cannot declare it. */
@Index('trace_tags_gin_idx', { synchronize: false })
export class TraceEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @PrimaryColumn('text')
  id!: string;

  @Column('timestamptz')
  timestamp!: Date;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('text', { nullable: true })
  userId!: string | null;

  @Column('text', { nullable: true })
  sessionId!: string | null;

  @Column('text', { nullable: true })
  release!: string | null;

  @Column('text', { nullable: true })
  version!: string | null;

  @Column('jsonb', { nullable: true })
  input!: unknown;

  @Column('jsonb', { nullable: true })
  output!: unknown;

  @Column('jsonb', { nullable: true })
  metadata!: unknown;

  @Column('text', { array: true, default: () => "'{}'" })
  tags!: string[];

  @Column('boolean', { default: false })
  public!: boolean;

  @Column('text', { default: 'default' })
  environment!: string;

  @Column('boolean', { default: false })
  implicit!: boolean;

  @Column('jsonb', { nullable: true })
  rollup!: unknown;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}

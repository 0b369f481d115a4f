import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A Langfuse score (`commons.yml` ScoreV1). */
@Entity('score')
@Index('score_project_trace_idx', ['projectId', 'traceId'])
export class ScoreEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @PrimaryColumn('text')
  id!: string;

  @Column('text', { nullable: true })
  traceId!: string | null;

  @Column('text', { nullable: true })
  observationId!: string | null;

  @Column('text', { nullable: true })
  sessionId!: string | null;

  @Column('text', { nullable: true })
  datasetRunId!: string | null;

  @Column('text')
  name!: string;

  @Column('double precision', { nullable: true })
  value!: number | null;

  @Column('text', { nullable: true })
  stringValue!: string | null;

  @Column('text')
  dataType!: string;

  @Column('text', { default: 'API' })
  source!: string;

  @Column('text', { nullable: true })
  comment!: string | null;

  @Column('jsonb', { nullable: true })
  metadata!: unknown;

  @Column('text', { nullable: true })
  configId!: string | null;

  @Column('text', { nullable: true })
  queueId!: string | null;

  @Column('text', { default: 'default' })
  environment!: string;

  @Column('timestamptz')
  timestamp!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}

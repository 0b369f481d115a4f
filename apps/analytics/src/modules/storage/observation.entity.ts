import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A Langfuse observation (`commons.yml` Observation / ObservationsView). */
@Entity('observation')
@Index('observation_project_trace_idx', ['projectId', 'traceId'])
@Index('observation_project_start_idx', ['projectId', 'startTime'])
export class ObservationEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  traceId!: string;

  @Column('text', { nullable: true })
  parentObservationId!: string | null;

  @Column('text')
  type!: string;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('timestamptz')
  startTime!: Date;

  @Column('timestamptz', { nullable: true })
  endTime!: Date | null;

  @Column('timestamptz', { nullable: true })
  completionStartTime!: Date | null;

  @Column('text', { nullable: true })
  model!: string | null;

  @Column('jsonb', { nullable: true })
  modelParameters!: unknown;

  @Column('jsonb', { nullable: true })
  input!: unknown;

  @Column('jsonb', { nullable: true })
  output!: unknown;

  @Column('jsonb', { nullable: true })
  metadata!: unknown;

  @Column('text', { default: 'DEFAULT' })
  level!: string;

  @Column('text', { nullable: true })
  statusMessage!: string | null;

  @Column('text', { nullable: true })
  version!: string | null;

  @Column('text', { default: 'default' })
  environment!: string;

  @Column('text', { nullable: true })
  promptName!: string | null;

  @Column('integer', { nullable: true })
  promptVersion!: number | null;

  @Column('jsonb', { default: () => "'{}'" })
  usageDetails!: Record<string, number>;

  @Column('jsonb', { default: () => "'{}'" })
  costDetails!: Record<string, number>;

  @Column('jsonb', { default: () => "'{}'" })
  providedUsageDetails!: Record<string, number>;

  @Column('jsonb', { default: () => "'{}'" })
  providedCostDetails!: Record<string, number>;

  /** Sum of usage types containing "input" (Langfuse's daily metrics definition). */
  @Column('bigint', { default: 0 })
  inputUsage!: string;

  /** Sum of usage types containing "output". */
  @Column('bigint', { default: 0 })
  outputUsage!: string;

  /** The `total` usage type. */
  @Column('bigint', { default: 0 })
  totalUsage!: string;

  @Column('numeric', { nullable: true })
  totalCost!: string | null;

  @Column('text', { nullable: true })
  modelId!: string | null;

  @Column('double precision', { nullable: true })
  inputPrice!: number | null;

  @Column('double precision', { nullable: true })
  outputPrice!: number | null;

  @Column('double precision', { nullable: true })
  totalPrice!: number | null;

  @Column('text', { nullable: true })
  unit!: string | null;

  @Column('boolean', { default: false })
  implicit!: boolean;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { default: () => 'now()' })
  updatedAt!: Date;
}

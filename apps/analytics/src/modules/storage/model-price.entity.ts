import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Model prices (docs/analytics.md § Cost): seeded for common models by a migration; rows with a
 * `project_id` override the global ones for that project.
 */
@Entity('model_price')
@Index('model_price_project_idx', ['projectId'])
export class ModelPriceEntity {
  @PrimaryColumn('text')
  id!: string;

  @Column('integer', { nullable: true })
  projectId!: number | null;

  @Column('text')
  modelName!: string;

  @Column('text')
  matchPattern!: string;

  @Column('timestamptz', { nullable: true })
  startDate!: Date | null;

  @Column('text', { default: 'TOKENS' })
  unit!: string;

  /** USD per unit by usage type, e.g. `{"input": 2.5e-6, "output": 1e-5}`. */
  @Column('jsonb')
  prices!: Record<string, number>;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt!: Date;
}

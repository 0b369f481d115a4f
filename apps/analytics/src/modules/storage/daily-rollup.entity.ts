import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Traces per UTC day (by trace timestamp) and per combination of the daily metrics filters
 * (trace name, user id, tag set); `''` stands for null. Maintained by deltas on ingest.
 */
@Entity('daily_trace_rollup')
export class DailyTraceRollupEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @PrimaryColumn('date')
  day!: string;

  @PrimaryColumn('text')
  traceName!: string;

  @PrimaryColumn('text')
  userId!: string;

  @PrimaryColumn('text', { array: true })
  tags!: string[];

  @Column('bigint', { default: 0 })
  countTraces!: string;
}

/**
 * Observation usage per UTC day (by observation start) and model, under the same filter keys as
 * the trace rollup (the filters apply to the observation's trace). `count_traces` counts the
 * distinct traces with an observation of that model that day.
 */
@Entity('daily_usage_rollup')
export class DailyUsageRollupEntity {
  @PrimaryColumn('integer')
  projectId!: number;

  @PrimaryColumn('date')
  day!: string;

  @PrimaryColumn('text')
  traceName!: string;

  @PrimaryColumn('text')
  userId!: string;

  @PrimaryColumn('text', { array: true })
  tags!: string[];

  @PrimaryColumn('text')
  model!: string;

  @Column('bigint', { default: 0 })
  countObservations!: string;

  @Column('bigint', { default: 0 })
  countTraces!: string;

  @Column('bigint', { default: 0 })
  inputUsage!: string;

  @Column('bigint', { default: 0 })
  outputUsage!: string;

  @Column('bigint', { default: 0 })
  totalUsage!: string;

  @Column('numeric', { default: 0 })
  totalCost!: string;
}

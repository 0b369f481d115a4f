import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Sentinel Pass activity entry (`token_generation`, `api_request`, `error`) from any service
 * (`*.activity.recorded`), stored idempotently by entry id, with an index per filter and sort of
 * the activity endpoints. Written by plain SQL in `SentinelPassRepository`; the entity describes
 * the table for the schema drift check.
 */
@Entity('agent_activity')
@Index('agent_activity_time_idx', ['agentUserId', 'occurredAt', 'id'])
@Index('agent_activity_type_idx', ['agentUserId', 'activityType', 'occurredAt'])
@Index('agent_activity_endpoint_idx', ['agentUserId', 'endpoint', 'occurredAt'])
@Index('agent_activity_success_idx', ['agentUserId', 'success', 'occurredAt'])
@Index('agent_activity_latency_idx', ['agentUserId', 'latencyMs'])
@Index('agent_activity_status_idx', ['agentUserId', 'statusCode'])
export class AgentActivity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'PK_agent_activity' })
  id!: string;

  /** The pass id. */
  @Column('uuid')
  agentUserId!: string;

  @Column('text')
  activityType!: string;

  /** The service that recorded it (`auth`, `org`, `wallet`). */
  @Column('text')
  service!: string;

  /** Route template, e.g. `/v1/api/wallets/:addressHash`. */
  @Column('text')
  endpoint!: string;

  @Column('text')
  method!: string;

  @Column('integer')
  statusCode!: number;

  @Column('double precision')
  latencyMs!: number;

  @Column('boolean')
  success!: boolean;

  @Column('text', { nullable: true })
  clientAddress!: string | null;

  @Column('text', { nullable: true })
  errorMessage!: string | null;

  @Column('timestamptz')
  occurredAt!: Date;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One row of an organization's audit log (docs/org.md § Audit log): append-only (a trigger
 * refuses UPDATE, DELETE and TRUNCATE), one row per organization and entry id (a user-level
 * entry of auth is stored once in each organization of the user; redeliveries are no-ops).
 * Indexes: one per filter of `GET …/audit_log`, each led by the organization and ending in the
 * keyset order `(occurred_at, entry_id)`.
 */
@Entity('audit_log')
@Index('audit_log_time_idx', ['organizationId', 'occurredAt', 'entryId'])
@Index('audit_log_actor_idx', ['organizationId', 'actorId', 'occurredAt', 'entryId'])
@Index('audit_log_action_idx', ['organizationId', 'action', 'occurredAt', 'entryId'])
export class AuditLogEntry {
  @PrimaryColumn('int')
  organizationId!: number;

  @PrimaryColumn('uuid')
  entryId!: string;

  @Column('timestamptz')
  occurredAt!: Date;

  /** One of `AUDIT_ACTIONS` (`@wp/contracts`). */
  @Column('text')
  action!: string;

  /** `success` or `failure`. */
  @Column('text')
  outcome!: string;

  /** `user`, `agent` or `anonymous`. */
  @Column('text')
  actorType!: string;

  @Column('text', { nullable: true })
  actorId!: string | null;

  @Column('text', { nullable: true })
  actorEmail!: string | null;

  @Column('text', { nullable: true })
  targetType!: string | null;

  @Column('text', { nullable: true })
  targetId!: string | null;

  @Column('text', { nullable: true })
  targetLabel!: string | null;

  @Column('text', { nullable: true })
  clientAddress!: string | null;

  @Column('text', { nullable: true })
  requestId!: string | null;

  @Column('text', { nullable: true })
  userAgent!: string | null;

  /** The service that recorded it: `auth`, `org` or `wallet`. */
  @Column('text')
  service!: string;

  /** Non-secret scalars chosen by the producer (a role, a count, a method). */
  @Column('jsonb', { default: {} })
  details!: Record<string, string | number | boolean | null>;

  @Column('timestamptz', { default: () => 'now()' })
  recordedAt!: Date;
}

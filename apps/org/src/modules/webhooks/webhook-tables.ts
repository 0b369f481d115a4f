import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  Unique,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { Organization } from '../tenants/organization.entity.js';
import { Project } from '../tenants/project.entity.js';

/** Where a delivery stands (docs/org.md § Webhooks). */
export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * A client's receiver of an organization's events (docs/org.md § Webhooks): its URL, the event
 * types it takes (`*`, `member.*`, exact types), optionally one project only. The signing
 * secret is sealed with the service's `AesGcmEnvelope`; after a rotation the previous one keeps
 * signing until `previousSecretExpiresAt`.
 */
@Entity('webhook_endpoint')
@Index('webhook_endpoint_organization_idx', ['organizationId', 'createdAt'])
@Index('webhook_endpoint_project_idx', ['projectId'])
export class WebhookEndpoint {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('int')
  organizationId!: number;

  /** Null: every event of the organization; set: only events of that project. */
  @Column('int', { nullable: true })
  projectId!: number | null;

  @Column('text')
  url!: string;

  @Column('text', { default: '' })
  description!: string;

  @Column('text', { array: true })
  eventTypes!: string[];

  @Column('boolean', { default: true })
  enabled!: boolean;

  /** Why it was disabled: `manual`, `gone` (410), `failing` (failing too long). */
  @Column('text', { nullable: true })
  disabledReason!: string | null;

  @Column('text')
  encryptedSecret!: string;

  @Column('text', { nullable: true })
  previousEncryptedSecret!: string | null;

  @Column('timestamptz', { nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** First failure since the last success; null while it succeeds. */
  @Column('timestamptz', { nullable: true })
  // jscpd:ignore-start: the row times and the organization and project relations every project-scoped entity declares.
  failingSince!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
  // jscpd:ignore-end
}

/**
 * One public event of an organization, stored once whatever the number of endpoints
 * (`payload` is the body receivers get, byte for byte: `json` keeps the text as written).
 * `eventId` is the event's stable id (`evt_…`), unique per organization: a redelivered source
 * stores nothing new.
 */
@Entity('webhook_message')
@Unique('webhook_message_event_uq', ['organizationId', 'eventId'])
@Index('webhook_message_organization_idx', ['organizationId', 'createdAt'])
@Index('webhook_message_created_idx', ['createdAt'])
export class WebhookMessage {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  eventId!: string;

  @Column('int')
  organizationId!: number;

  @Column('int', { nullable: true })
  projectId!: number | null;

  @Column('text')
  eventType!: string;

  @Column('json')
  payload!: object;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}

/**
 * One message to one endpoint: the retry state. Due rows (`pending`, or `delivering` whose
 * lease ran out) are claimed with `FOR UPDATE SKIP LOCKED` by any org process.
 */
@Entity('webhook_delivery')
@Unique('webhook_delivery_message_endpoint_uq', ['messageId', 'endpointId'])
@Index('webhook_delivery_due_idx', ['nextAttemptAt'], {
  where: `status IN ('pending', 'delivering')`,
})
@Index('webhook_delivery_in_flight_idx', ['endpointId'], { where: `status = 'delivering'` })
@Index('webhook_delivery_endpoint_idx', ['endpointId', 'createdAt'])
@Index('webhook_delivery_endpoint_status_idx', ['endpointId', 'status', 'createdAt'])
@Index('webhook_delivery_endpoint_type_idx', ['endpointId', 'eventType', 'createdAt'])
export class WebhookDelivery {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  messageId!: string;

  @Column('uuid')
  endpointId!: string;

  @Column('text')
  eventType!: string;

  @Column('text', { default: 'pending' })
  status!: DeliveryStatus;

  @Column('int', { default: 0 })
  attemptCount!: number;

  /** When it is due (pending), or when its lease ends (delivering); null once final. */
  @Column('timestamptz', { nullable: true })
  nextAttemptAt!: Date | null;

  /** End of the claiming process's lease while `delivering`. */
  @Column('timestamptz', { nullable: true })
  lockedUntil!: Date | null;

  /**
   * The dispatcher (one per org process, a random id per start) holding the lease while
   * `delivering`: an endpoint's deliveries are leased by one dispatcher at a time (docs/org.md §
   * Webhooks, Dispatcher); null otherwise.
   */
  @Column('uuid', { nullable: true })
  leasedBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => WebhookMessage, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: Relation<WebhookMessage>;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: Relation<WebhookEndpoint>;
}

/** One HTTP attempt of a delivery: what the receiver answered (first 4 KB) or what failed. */
@Entity('webhook_attempt')
@Index('webhook_attempt_delivery_idx', ['deliveryId', 'startedAt'])
export class WebhookAttempt {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  deliveryId!: string;

  @Column('timestamptz')
  startedAt!: Date;

  @Column('int')
  durationMs!: number;

  /** HTTP status of the answer; null when none came (refused, timed out, reset). */
  @Column('int', { nullable: true })
  responseStatus!: number | null;

  /** The answer's body, at most 4 KB (UTF-8, cut). */
  @Column('text', { nullable: true })
  responseBody!: string | null;

  @Column('text', { nullable: true })
  error!: string | null;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: Relation<WebhookDelivery>;
}

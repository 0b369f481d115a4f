import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import { webhookEventsFromAudit, type AuditEntry } from '@wp/contracts';
import { WebhookPublisher } from '../webhooks/webhook-publisher.js';

/** Filters of the audit log (all optional but the organization). */
export interface AuditLogFilter {
  organizationId: number;
  actorId?: string;
  actions?: string[];
  /** Inclusive lower bound. */
  from?: Date;
  /** Upper bound, exclusive when `untilExclusive`. */
  until?: Date;
  untilExclusive?: boolean;
}

/** Keyset position: entries strictly older than (occurredAt, entryId). */
export interface AuditCursor {
  /** `occurred_at` as PostgreSQL prints it (microseconds kept). */
  at: string;
  id: string;
}

/** A stored entry as read back. */
export interface AuditLogRow {
  entryId: string;
  occurredAt: Date;
  cursorAt: string;
  action: string;
  outcome: string;
  actorType: string;
  actorId: string | null;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  clientAddress: string | null;
  requestId: string | null;
  userAgent: string | null;
  service: string;
  details: Record<string, string | number | boolean | null>;
}

const COLUMNS = `organization_id, entry_id, occurred_at, action, outcome, actor_type, actor_id,
  actor_email, target_type, target_id, target_label, client_address, request_id, user_agent,
  service, details`;
const VALUES = `$2::uuid, $3::timestamptz, $4::text, $5::text, $6::text, $7::text, $8::text,
  $9::text, $10::text, $11::text, $12::text, $13::text, $14::text, $15::text, $16::jsonb`;

/**
 * The audit log table: the only code that touches `audit_log`. Writes only insert (the table
 * is append-only); reads are keyset-paged, newest first. Each entry stored in an organization
 * is also offered to that organization's webhooks in the same transaction
 * (`webhookEventsFromAudit`, docs/org.md § Webhooks, Sources); a redelivered entry stores
 * nothing and so publishes nothing.
 */
@Injectable()
export class AuditLogRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly webhooks: WebhookPublisher,
  ) {}

  /** Stores an entry in its organization (if that organization exists); idempotent. */
  async insertForOrganization(entry: AuditEntry, service: string): Promise<void> {
    const manager = activeTransaction(this.txHost);
    const stored: { organization_id: number }[] = await manager.query(
      `INSERT INTO audit_log (${COLUMNS})
       SELECT o.id, ${VALUES} FROM organization o WHERE o.id = $1::int
       ON CONFLICT (organization_id, entry_id) DO NOTHING
       RETURNING organization_id`,
      [entry.organizationId, ...values(entry, service)],
    );
    await this.publish(entry, stored);
  }

  /**
   * Stores a user-level entry once in every organization the subject user belongs to now
   * (organization member or project member); idempotent.
   */
  async insertForSubjectUser(entry: AuditEntry, service: string): Promise<void> {
    const manager = activeTransaction(this.txHost);
    const stored: { organization_id: number }[] = await manager.query(
      `INSERT INTO audit_log (${COLUMNS})
       SELECT m.organization_id, ${VALUES}
         FROM (SELECT organization_id FROM organization_membership WHERE user_id = $1::uuid
               UNION
               SELECT organization_id FROM project_membership WHERE user_id = $1::uuid) m
       ON CONFLICT (organization_id, entry_id) DO NOTHING
       RETURNING organization_id`,
      [entry.subjectUserId, ...values(entry, service)],
    );
    await this.publish(entry, stored);
  }

  /** The entry's public events in each organization it was just stored in. */
  private async publish(entry: AuditEntry, stored: { organization_id: number }[]): Promise<void> {
    const events = stored.flatMap((row) => webhookEventsFromAudit(entry, row.organization_id));
    await this.webhooks.publish(events);
  }

  /** Up to `limit` entries after `cursor`, newest first. */
  async page(
    filter: AuditLogFilter,
    cursor: AuditCursor | null,
    limit: number,
  ): Promise<AuditLogRow[]> {
    const { where, params } = filterSql(filter);
    let keyset = '';
    if (cursor) {
      params.push(cursor.at, cursor.id);
      keyset = `AND (occurred_at, entry_id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
    }
    params.push(limit);
    const rows = await this.txHost.tx.query<Record<string, unknown>[]>(
      `SELECT entry_id, occurred_at, occurred_at::text AS cursor_at, action, outcome, actor_type,
              actor_id, actor_email, target_type, target_id, target_label, client_address,
              request_id, user_agent, service, details
         FROM audit_log WHERE ${where} ${keyset}
        ORDER BY occurred_at DESC, entry_id DESC
        LIMIT $${params.length}`,
      params,
    );
    return rows.map(toRow);
  }

  /** Every matching entry, newest first, read in keyset batches (constant memory). */
  async *all(filter: AuditLogFilter, batch = 1000): AsyncGenerator<AuditLogRow> {
    let cursor: AuditCursor | null = null;
    for (;;) {
      const rows = await this.page(filter, cursor, batch);
      yield* rows;
      if (rows.length < batch) return;
      const last = rows[rows.length - 1];
      cursor = { at: last.cursorAt, id: last.entryId };
    }
  }
}

function values(entry: AuditEntry, service: string): unknown[] {
  return [
    entry.id,
    entry.occurredAt,
    entry.action,
    entry.outcome,
    entry.actor.type,
    entry.actor.id,
    entry.actor.email,
    entry.target?.type ?? null,
    entry.target?.id ?? null,
    entry.target?.label ?? null,
    entry.clientAddress,
    entry.requestId,
    entry.userAgent,
    service,
    JSON.stringify(entry.details),
  ];
}

function filterSql(filter: AuditLogFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [filter.organizationId];
  const clauses = ['organization_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.actorId !== undefined) add('actor_id = ?', filter.actorId);
  if (filter.actions?.length) add('action = ANY(?::text[])', filter.actions);
  if (filter.from) add('occurred_at >= ?', filter.from.toISOString());
  if (filter.until) {
    add(`occurred_at ${filter.untilExclusive ? '<' : '<='} ?`, filter.until.toISOString());
  }
  return { where: clauses.join(' AND '), params };
}

function toRow(r: Record<string, unknown>): AuditLogRow {
  return {
    entryId: r['entry_id'] as string,
    occurredAt: r['occurred_at'] as Date,
    cursorAt: r['cursor_at'] as string,
    action: r['action'] as string,
    outcome: r['outcome'] as string,
    actorType: r['actor_type'] as string,
    actorId: r['actor_id'] as string | null,
    actorEmail: r['actor_email'] as string | null,
    targetType: r['target_type'] as string | null,
    targetId: r['target_id'] as string | null,
    targetLabel: r['target_label'] as string | null,
    clientAddress: r['client_address'] as string | null,
    requestId: r['request_id'] as string | null,
    userAgent: r['user_agent'] as string | null,
    service: r['service'] as string,
    details: r['details'] as AuditLogRow['details'],
  };
}

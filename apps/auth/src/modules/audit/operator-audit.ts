import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { KeysetCursor, RequestMeta } from '@wp/http';
import { activeTransaction, TxHost } from '@wp/persistence';
import { OperatorAuditEntry } from './operator-audit-entry.entity.js';

/** Who made an operator change: the Admin-Access API (with its request) or the CLI. */
export type OperatorActor =
  { type: 'admin_access'; meta: RequestMeta } | { type: 'cli'; osUser: string | null };

/** One operator change, as {@link OperatorAudit.record} takes it. */
export interface OperatorAuditEvent {
  action: string;
  actor: OperatorActor;
  target: { type: string; id: string; label: string | null };
  /** Non-secret facts only: field names, flags, never a secret's value. */
  details?: Record<string, string | number | boolean | null>;
}

/** A stored entry as read back, with its keyset position. */
export interface OperatorAuditRow extends OperatorAuditEntry {
  /** `occurred_at` as PostgreSQL prints it (microseconds kept, for the next page's cursor). */
  cursorAt: string;
}

/**
 * The audit of operators' changes to sign-in configuration (`operator_audit_log`; docs/auth.md
 * § Sign-in with an OpenID provider, "Audit"). The entry is written in the transaction of the
 * change (`TxHost`), so it exists if and only if the change commits.
 */
@Injectable()
export class OperatorAudit {
  constructor(private readonly txHost: TxHost) {}

  /** @throws Error when no transaction is open (a programming error: the entry must commit with the change) */
  async record(event: OperatorAuditEvent): Promise<void> {
    const meta = event.actor.type === 'admin_access' ? event.actor.meta : null;
    const entry: OperatorAuditEntry = {
      id: randomUUID(),
      occurredAt: new Date(),
      action: event.action,
      actorType: event.actor.type,
      actorId: event.actor.type === 'cli' ? event.actor.osUser : null,
      targetType: event.target.type,
      targetId: event.target.id,
      targetLabel: event.target.label,
      clientAddress: meta?.clientAddress ?? null,
      requestId: meta?.requestId ?? null,
      userAgent: meta?.userAgent ?? null,
      details: event.details ?? {},
    };
    await activeTransaction(this.txHost).getRepository(OperatorAuditEntry).insert(entry);
  }

  /**
   * Up to `limit` entries strictly older than `cursor` (or the newest), newest first, ordered
   * by `(occurred_at, id)` (index `operator_audit_log_keyset_idx`).
   */
  async page(cursor: KeysetCursor | null, limit: number): Promise<OperatorAuditRow[]> {
    const keyset = cursor ? 'WHERE (occurred_at, id) < ($2::timestamptz, $3::uuid)' : '';
    const rows: Record<string, unknown>[] = await this.txHost.tx.query(
      `SELECT id, occurred_at, occurred_at::text AS cursor_at, action, actor_type, actor_id,
              target_type, target_id, target_label, client_address, request_id, user_agent, details
         FROM operator_audit_log ${keyset}
        ORDER BY occurred_at DESC, id DESC
        LIMIT $1`,
      cursor ? [limit, cursor.at, cursor.id] : [limit],
    );
    return rows.map((r) => ({
      id: r['id'] as string,
      occurredAt: r['occurred_at'] as Date,
      cursorAt: r['cursor_at'] as string,
      action: r['action'] as string,
      actorType: r['actor_type'] as string,
      actorId: r['actor_id'] as string | null,
      targetType: r['target_type'] as string,
      targetId: r['target_id'] as string,
      targetLabel: r['target_label'] as string | null,
      clientAddress: r['client_address'] as string | null,
      requestId: r['request_id'] as string | null,
      userAgent: r['user_agent'] as string | null,
      details: r['details'] as OperatorAuditRow['details'],
    }));
  }
}

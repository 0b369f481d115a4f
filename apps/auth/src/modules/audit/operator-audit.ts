import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '@wp/http';
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
}

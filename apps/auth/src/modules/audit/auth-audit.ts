import { TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  AuditAction,
  AuditActor,
  AuditDetails,
  AuditEntry,
  AuditOutcome,
  AuditTarget,
} from '@wp/contracts';
import type { RequestMeta } from '@wp/http';
import { Outbox, type OutboxDraft } from '@wp/messaging';

/** One user-level security event (docs/org.md § Audit log, "From auth"). */
export interface UserAuditEvent {
  action: AuditAction;
  outcome?: AuditOutcome;
  /** The account concerned: its organizations receive the entry. */
  user: { id: string; email: string | null };
  /** Who acted; default: the user. */
  actor?: AuditActor;
  /** What was acted on; default: the user. */
  target?: AuditTarget;
  meta: RequestMeta;
  /** Non-secret facts only (a method, a count, a reason): never a code, token or password. */
  details?: AuditDetails;
  /**
   * The organization the entry belongs to (an organization's own connection: its changes and
   * its sign-ins); absent: user-level, stored in every organization of the user.
   */
  organizationId?: number;
}

/**
 * Publishes auth's security events for the organization audit log: `auth.audit.recorded`
 * through the transactional outbox, one user-level entry (`organizationId` null,
 * `subjectUserId` the account) that org stores in every organization the user belongs to.
 */
@Injectable()
export class AuthAudit {
  constructor(
    private readonly outbox: Outbox,
    private readonly txHost: TxHost,
  ) {}

  /**
   * Written in the transaction active in the async context (`TxHost`: the entry exists iff the
   * change commits); outside one the entry is written alone (one INSERT) and the relay woken.
   */
  async record(event: UserAuditEvent): Promise<void> {
    const entry = entryOf(event);
    if (this.txHost.isTransactionActive()) {
      await this.outbox.enqueue('auth.audit.recorded', { entries: [entry] });
    } else {
      // Alone (a sign-in): one INSERT, no transaction around it, and the relay woken.
      await this.outbox.enqueueAlone('auth.audit.recorded', { entries: [entry] });
    }
  }

  /**
   * The entry as an outbox row not written yet, for a sign-in that inserts it in the same
   * statement as its session (`SessionsService.open`); {@link AuthAudit.written} once that
   * statement succeeded.
   */
  draft(event: UserAuditEvent): OutboxDraft {
    return this.outbox.draft('auth.audit.recorded', { entries: [entryOf(event)] });
  }

  /** A {@link AuthAudit.draft} was written: the relay publishes it after the current answer. */
  written(): void {
    this.outbox.written();
  }
}

function entryOf(event: UserAuditEvent): AuditEntry {
  return {
    id: randomUUID(),
    action: event.action,
    outcome: event.outcome ?? 'success',
    occurredAt: new Date().toISOString(),
    organizationId: event.organizationId ?? null,
    subjectUserId: event.user.id,
    actor: event.actor ?? { type: 'user', id: event.user.id, email: event.user.email },
    target: event.target ?? { type: 'user', id: event.user.id, label: event.user.email },
    clientAddress: event.meta.clientAddress,
    requestId: event.meta.requestId,
    userAgent: event.meta.userAgent,
    details: event.details ?? {},
  };
}

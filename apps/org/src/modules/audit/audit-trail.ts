import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  AuditAction,
  AuditActor,
  AuditDetails,
  AuditOutcome,
  AuditTarget,
} from '@wp/contracts';
import type { Principal } from '@wp/security';
import { AuditLogRepository } from './audit-log.repository.js';
import { currentRequestMeta } from './request-context.js';

/** An organization-level action of the org service, as its command records it. */
export interface OrganizationAuditEvent {
  organizationId: number;
  action: AuditAction;
  target: AuditTarget | null;
  details?: AuditDetails;
  outcome?: AuditOutcome;
}

/**
 * Records org's own administrative actions in the organization's audit log, in the
 * transaction of the change (the entry exists iff the change commits; docs/org.md § Audit
 * log). The actor is the principal; time, client address, request id and user agent come from
 * the request being served (`RequestContextInterceptor`).
 */
@Injectable()
export class AuditTrail {
  constructor(private readonly log: AuditLogRepository) {}

  async record(principal: Principal, event: OrganizationAuditEvent): Promise<void> {
    await this.recordAs({ type: principal.type, id: principal.id, email: principal.email }, event);
  }

  /**
   * {@link record} for an actor that is no principal of this request: e.g. the person whose
   * provider sign-in, reported by auth, made them a member (`member.added` with `via: sso`).
   */
  async recordAs(actor: AuditActor, event: OrganizationAuditEvent): Promise<void> {
    const meta = currentRequestMeta();
    await this.log.insertForOrganization(
      {
        id: randomUUID(),
        action: event.action,
        outcome: event.outcome ?? 'success',
        occurredAt: new Date().toISOString(),
        organizationId: event.organizationId,
        subjectUserId: null,
        actor,
        target: event.target,
        clientAddress: meta.clientAddress,
        requestId: meta.requestId,
        userAgent: meta.userAgent,
        details: event.details ?? {},
      },
      'org',
    );
  }
}

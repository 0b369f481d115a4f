import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuditRecorded } from '@wp/contracts';
import { EventBus } from '@wp/messaging';
import { AuditLogRepository } from './audit-log.repository.js';

/**
 * Feeds the audit log from the other services' outboxes (docs/org.md § Audit log):
 * `auth.audit.recorded` (user-level security events, stored in every organization the user
 * belongs to when the event is applied) and `wallet.audit.recorded` (wallet credits, stored in
 * the wallet's organization). Idempotent twice over: the event bus's processed-event row, and
 * one row per (organization, entry id).
 */
@Injectable()
export class AuditEventsHandler implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly log: AuditLogRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('auth.audit.recorded', 'audit_auth', (event) => this.store(event.payload, 'auth'));
    this.bus.on('wallet.audit.recorded', 'audit_wallet', (event) =>
      this.store(event.payload, 'wallet'),
    );
  }

  private async store(payload: AuditRecorded, service: string): Promise<void> {
    for (const entry of payload.entries) {
      if (entry.organizationId !== null) {
        await this.log.insertForOrganization(entry, service);
      } else {
        await this.log.insertForSubjectUser(entry, service);
      }
    }
  }
}

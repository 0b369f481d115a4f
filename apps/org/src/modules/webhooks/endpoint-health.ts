import { returningRows } from '@wp/persistence';
import { Injectable, Logger } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { SubscriptionHint } from './subscription-hint.js';

/** Template name of the "endpoint disabled" mail in `notify.requested`. */
export const ENDPOINT_DISABLED_TEMPLATE = 'org.webhook_endpoint_disabled';

const REASONS: Record<string, string> = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery to it has failed for too long',
};

/**
 * Disabling endpoints that cannot receive (docs/org.md § Webhooks, Disabling): one failing
 * without a success for longer than `WEBHOOK_DISABLE_AFTER_SECONDS`, or one that answered 410
 * Gone. The organization's OWNERs are told by mail (`notify.requested`, delivered by auth), in
 * the transaction that disables it. Pending deliveries stay queued: enabling the endpoint again
 * sends them.
 */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger('WebhookEndpointHealth');

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly hint: SubscriptionHint,
  ) {}

  /** Disables an endpoint failing too long (if still enabled) and tells the OWNERs. */
  async disableFailing(endpointId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const rows = await returningRows<{ organization_id: number; url: string }>(
        manager.query(
          `UPDATE webhook_endpoint SET enabled = false, disabled_reason = 'failing', updated_at = now()
          WHERE id = $1 AND enabled RETURNING organization_id, url`,
          [endpointId],
        ),
      );
      const row = rows[0];
      if (!row) return;
      await this.hint.changed(manager, row.organization_id);
      await this.tellOwners(manager, row.organization_id, endpointId, row.url, 'failing');
    });
  }

  /** Tells the OWNERs about an endpoint the dispatcher already disabled (410 Gone). */
  async disabled(endpointId: string, reason: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const rows: { organization_id: number; url: string }[] = await manager.query(
        `SELECT organization_id, url FROM webhook_endpoint WHERE id = $1`,
        [endpointId],
      );
      const row = rows[0];
      if (!row) return;
      await this.hint.changed(manager, row.organization_id);
      await this.tellOwners(manager, row.organization_id, endpointId, row.url, reason);
    });
  }

  private async tellOwners(
    manager: EntityManager,
    organizationId: number,
    endpointId: string,
    url: string,
    reason: string,
  ): Promise<void> {
    const owners: { email: string; name: string }[] = await manager.query(
      `SELECT u.email, o.name FROM organization_membership m
         JOIN directory_user u ON u.id = m.user_id
         JOIN organization o ON o.id = m.organization_id
        WHERE m.organization_id = $1 AND m.role = 'OWNER' AND u.email IS NOT NULL`,
      [organizationId],
    );
    this.logger.warn(`webhook endpoint ${endpointId} disabled: ${reason}`);
    for (const owner of owners) {
      await this.outbox.enqueue(manager, 'notify.requested', {
        channel: 'email',
        to: owner.email,
        subject: `Webhook endpoint disabled in ${owner.name}`,
        text: [
          `The webhook endpoint ${url} of the organization "${owner.name}" was disabled because ${REASONS[reason] ?? reason}.`,
          '',
          'Events are kept: once the receiver works again, enable the endpoint and replay what it missed.',
        ].join('\n'),
        headers: { 'X-Webhook-Endpoint-Id': endpointId },
        template: ENDPOINT_DISABLED_TEMPLATE,
      });
    }
  }
}

import { activeTransaction, returningRows, TxHost } from '@wp/persistence';
import { Injectable, Logger } from '@nestjs/common';
import { webhookEndpointDisabledEvent } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import { SubscriptionHint } from './subscription-hint.js';
import { WebhookPublisher } from './webhook-publisher.js';

/** Template name of the "endpoint disabled" mail in `notify.requested`. */
export const ENDPOINT_DISABLED_TEMPLATE = 'org.webhook_endpoint_disabled';

const REASONS: Record<string, string> = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery to it has failed for too long',
};

interface DisabledRow {
  organization_id: number;
  project_id: number | null;
  url: string;
  failing_since: Date | null;
  updated_at: Date;
}
const DISABLED_COLUMNS = 'organization_id, project_id, url, failing_since, updated_at';

/**
 * Disabling endpoints that cannot receive (docs/org.md § Webhooks, Disabling): one failing
 * without a success for longer than `WEBHOOK_DISABLE_AFTER_SECONDS`, or one that answered 410
 * Gone. The organization's OWNERs are told by mail (`notify.requested`, delivered by auth), and
 * its other endpoints by the public event `webhook_endpoint.disabled`, in the transaction that
 * disables it. Pending deliveries stay queued: enabling the endpoint again
 * sends them.
 */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger('WebhookEndpointHealth');

  constructor(
    private readonly txHost: TxHost,
    private readonly outbox: Outbox,
    private readonly hint: SubscriptionHint,
    private readonly publisher: WebhookPublisher,
  ) {}

  /** Disables an endpoint failing too long (if still enabled) and tells the OWNERs. */
  async disableFailing(endpointId: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const manager = this.txHost.tx;
      const rows = await returningRows<DisabledRow>(
        manager.query(
          `UPDATE webhook_endpoint SET enabled = false, disabled_reason = 'failing', updated_at = now()
          WHERE id = $1 AND enabled RETURNING ${DISABLED_COLUMNS}`,
          [endpointId],
        ),
      );
      const row = rows[0];
      if (!row) return;
      await this.hint.changed(row.organization_id);
      await this.tellOwners(row.organization_id, endpointId, row.url, 'failing');
      await this.announce(endpointId, row, 'failing');
    });
  }

  /** Tells the OWNERs about an endpoint the dispatcher already disabled (410 Gone). */
  async disabled(endpointId: string, reason: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const manager = this.txHost.tx;
      const rows: DisabledRow[] = await manager.query(
        `SELECT ${DISABLED_COLUMNS} FROM webhook_endpoint WHERE id = $1`,
        [endpointId],
      );
      const row = rows[0];
      if (!row) return;
      await this.hint.changed(row.organization_id);
      await this.tellOwners(row.organization_id, endpointId, row.url, reason);
      await this.announce(endpointId, row, reason);
    });
  }

  /**
   * `webhook_endpoint.disabled` to the organization's other endpoints that select it (this one
   * is disabled already, so the fan-out leaves it out), in the disabling transaction.
   */
  private async announce(endpointId: string, row: DisabledRow, reason: string): Promise<void> {
    await this.publisher.publish([
      webhookEndpointDisabledEvent({
        endpointId,
        organizationId: row.organization_id,
        projectId: row.project_id,
        reason: reason === 'gone' ? 'gone' : 'failing',
        failingSince: row.failing_since,
        at: row.updated_at,
      }),
    ]);
  }

  private async tellOwners(
    organizationId: number,
    endpointId: string,
    url: string,
    reason: string,
  ): Promise<void> {
    const owners: { email: string; name: string }[] = await activeTransaction(this.txHost).query(
      `SELECT u.email, o.name FROM organization_membership m
         JOIN directory_user u ON u.id = m.user_id
         JOIN organization o ON o.id = m.organization_id
        WHERE m.organization_id = $1 AND m.role = 'OWNER' AND u.email IS NOT NULL`,
      [organizationId],
    );
    this.logger.warn(`webhook endpoint ${endpointId} disabled: ${reason}`);
    for (const owner of owners) {
      await this.outbox.enqueue('notify.requested', {
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

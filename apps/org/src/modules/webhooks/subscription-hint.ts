import { Injectable } from '@nestjs/common';
import { selectsTransactionEvents } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import { activeTransaction, TxHost } from '@wp/persistence';

/**
 * Tells the wallet whether the organization has an enabled endpoint selecting
 * `transaction.posted` (`org.webhook_subscriptions.changed`, docs/org.md § Webhooks, Sources):
 * the wallet writes transaction events only for organizations that do. Called in the
 * transaction (the one active in the async context) of every endpoint change (create, update, delete, disable), which holds the
 * organization's row lock, so `version` (the database clock in microseconds, read after the
 * lock) grows in commit order.
 */
@Injectable()
export class SubscriptionHint {
  constructor(
    private readonly txHost: TxHost,
    private readonly outbox: Outbox,
  ) {}

  /** @throws Error when no transaction is active (`TxHost`; a programming error) */
  async changed(organizationId: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    const endpoints: { enabled: boolean; event_types: string[] }[] = await manager.query(
      'SELECT enabled, event_types FROM webhook_endpoint WHERE organization_id = $1',
      [organizationId],
    );
    const [{ version }]: { version: string }[] = await manager.query(
      `SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint::text AS version`,
    );
    await this.outbox.enqueue('org.webhook_subscriptions.changed', {
      organizationId,
      transactionEvents: selectsTransactionEvents(
        endpoints.map((e) => ({ enabled: e.enabled, eventTypes: e.event_types })),
      ),
      version: Number(version),
    });
  }
}

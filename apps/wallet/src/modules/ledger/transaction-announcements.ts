import { TxHost } from '@wp/persistence';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import type { EventPayload } from '@wp/contracts';
import { EventBus } from '@wp/messaging';
import { periodicJobs, type PeriodicJob } from '@wp/observability';
import { DataSource } from 'typeorm';
import type { JournalEntryType } from './journal-entry.entity.js';

/** How often a process re-reads whether any organization wants transaction events. */
export const HINTS_REFRESH_MS = 5_000;

const ANNOUNCED: ReadonlySet<JournalEntryType> = new Set(['debit', 'transfer', 'conversion']);

/**
 * Whether movements are announced to org's webhooks (docs/webhooks.md § Transaction events and
 * the transfer path; docs/decisions.md § Webhook events). Org publishes, per organization,
 * whether an enabled endpoint selects `transaction.posted` (`org.webhook_subscriptions.changed`);
 * this keeps it in `webhook_hint` (newest version wins) and remembers in memory whether ANY
 * organization does. While none does — every deployment without such an endpoint, and the
 * transfer benchmark — movements run the plain ledger statement: the whole cost is this flag.
 * When one does, they run the announcing statement (`announced-moves.ts`), which writes the
 * event only for the wallets of organizations that want it.
 *
 * The flag is re-read every {@link HINTS_REFRESH_MS} (a change consumed by another replica
 * reaches this one then) and set at once when this process consumes a subscription. Until the
 * first read it is true: unsure means announce (the statement itself still decides per wallet).
 */
@Injectable()
export class TransactionAnnouncements
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('TransactionAnnouncements');
  private wanted = true;
  private job?: PeriodicJob;

  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    this.bus.on('org.webhook_subscriptions.changed', 'webhook_subscriptions', (event) =>
      this.apply(event.payload),
    );
  }

  onApplicationBootstrap(): void {
    void this.refresh();
    this.job = periodicJobs.every('wallet.webhook-hints', HINTS_REFRESH_MS, () => this.refresh());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  /** True when a movement of this type must use the announcing statement. */
  announces(type: JournalEntryType): boolean {
    return this.wanted && ANNOUNCED.has(type);
  }

  /** Stores an organization's subscription state unless an equal or newer one is stored. */
  async apply(change: EventPayload<'org.webhook_subscriptions.changed'>): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO webhook_hint (organization_id, transaction_events, version)
       VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO UPDATE
         SET transaction_events = EXCLUDED.transaction_events, version = EXCLUDED.version
         WHERE webhook_hint.version < EXCLUDED.version`,
      [change.organizationId, change.transactionEvents, change.version],
    );
    if (change.transactionEvents) this.wanted = true;
  }

  /** Re-reads whether any organization wants transaction events (keeps the flag on failure). */
  async refresh(): Promise<void> {
    try {
      const [row] = await this.dataSource.query<{ wanted: boolean }[]>(
        'SELECT EXISTS (SELECT 1 FROM webhook_hint WHERE transaction_events) AS wanted',
      );
      this.wanted = row?.wanted === true;
    } catch (error) {
      this.logger.warn(`could not read webhook hints: ${(error as Error).message}`);
    }
  }
}

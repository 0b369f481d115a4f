import { returningRows } from '@wp/persistence';
import { type PeriodicJob, periodicJobs } from '@wp/observability';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';

const INTERVAL_MS = 3_600_000;
const BATCH = 1000;

/**
 * The retention sweeper of webhook messages (docs/org.md § Webhooks, Retention): every hour,
 * messages older than `WEBHOOK_RETENTION_DAYS` none of whose deliveries is still pending or in
 * flight are deleted with their deliveries and attempts (cascade), in batches of 1000 so no
 * transaction grows large. Several replicas may sweep at once: a delete of a row already gone is
 * nothing.
 */
@Injectable()
export class WebhookRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookRetention');
  private job?: PeriodicJob;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ORG_CONFIG) private readonly config: OrgConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job = periodicJobs.every('org.webhook-retention', INTERVAL_MS, () => this.sweep());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  /** One sweep; returns how many messages were deleted. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await returningRows<unknown>(
        this.dataSource.query(
          `DELETE FROM webhook_message WHERE id IN (
           SELECT m.id FROM webhook_message m
            WHERE m.created_at < now() - make_interval(days => $1)
              AND NOT EXISTS (SELECT 1 FROM webhook_delivery d
                               WHERE d.message_id = m.id AND d.status IN ('pending', 'delivering'))
            LIMIT $2)
         RETURNING id`,
          [this.config.WEBHOOK_RETENTION_DAYS, BATCH],
        ),
      );
      total += rows.length;
      if (rows.length < BATCH || this.job?.active === false) break;
    }
    if (total > 0) this.logger.log(`deleted ${total} webhook message(s) past retention`);
    return total;
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EventEnvelope } from '@wp/contracts';
import type { Job, JobResult, PgBoss } from 'pg-boss';
import { EventTransport, type SubscriptionSpec } from '../event-transport.js';
import { Namespacer } from '../namespace.js';
import { ConsumerMetrics } from '../messaging.metrics.js';

/** The pg-boss instance of this process (`PostgresTransportModule`). */
export const PG_BOSS = Symbol('PG_BOSS');

/**
 * Queue settings of every durable consumer: redelivery with exponential back-off up to 30 s and
 * practically without limit (as JetStream's `max_deliver: -1`), an unacknowledged delivery is
 * retried after 60 s (`ack_wait`), waiting events are kept 14 days, handled ones 1 day.
 */
const QUEUE_OPTIONS = {
  retryLimit: 1_000_000,
  retryDelay: 1,
  retryBackoff: true,
  retryDelayMax: 30,
  expireInSeconds: 60,
  retentionSeconds: 14 * 24 * 3600,
  deleteAfterSeconds: 24 * 3600,
  notify: true,
} as const;
const BATCH = 32;

/**
 * Embedded mode's {@link EventTransport} on pg-boss (https://timgit.github.io/pg-boss/) in the
 * platform database: a queue per durable consumer (`<service>.<name>`) subscribed to its subject,
 * `publish` copies an event into every subscribed queue in one statement each, with the event id
 * as job id (a second publish of the same event is ignored while the first is kept). Workers are
 * woken by pg-boss's `NOTIFY` and poll every second (retries, missed wake-ups); a delivery is
 * completed only after the handler (and so the consumer's transaction) succeeded, else retried
 * with back-off. A consumer that is down finds its queue filled when it comes back.
 */
@Injectable()
export class PgBossTransport extends EventTransport {
  private readonly logger = new Logger('PgBoss');
  private readonly specs: SubscriptionSpec[] = [];
  private readonly queues: string[] = [];

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    private readonly names: Namespacer,
    private readonly metrics: ConsumerMetrics,
  ) {
    super();
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    await this.boss.publish(this.names.subject(envelope.subject), envelope, { id: envelope.id });
  }

  subscribe(spec: SubscriptionSpec): void {
    this.specs.push(spec);
  }

  /**
   * Creates each consumer's queue and subscription (both kept across restarts: rows) and starts
   * its worker, all consumers at once — one after another they were a second of a restart under
   * load (docs/operations.md § Start-up time).
   */
  async start(): Promise<void> {
    await Promise.all(
      this.specs.map(async (spec) => {
        const queue = this.queueOf(spec.durable);
        await this.boss.createQueue(queue, QUEUE_OPTIONS);
        await this.boss.subscribe(this.names.subject(spec.subject), queue);
        await this.boss.work<EventEnvelope>(
          queue,
          {
            batchSize: BATCH,
            // Retries wake nobody: poll every second also while NOTIFY is active (default 30 s).
            pollingIntervalSeconds: 1,
            notifyPollingIntervalSeconds: 1,
            perJobResults: true,
          },
          (jobs) => this.deliver(spec, jobs),
        );
        this.queues.push(queue);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const queue of this.queues.splice(0)) {
      await this.boss.offWork(queue, { wait: true }).catch(() => undefined);
    }
  }

  /** One batch, in order; each event completed or failed (retried) on its own. */
  private async deliver(spec: SubscriptionSpec, jobs: Job<EventEnvelope>[]): Promise<JobResult[]> {
    const results: JobResult[] = [];
    for (const job of jobs) {
      try {
        const envelope = { ...job.data, subject: spec.subject } as EventEnvelope;
        this.metrics.record(spec.durable, envelope, (job.retryCount ?? 0) + 1);
        await spec.handler(envelope);
        results.push({ id: job.id, status: 'completed' });
      } catch (error) {
        this.logger.warn(
          `${spec.durable}: event ${job.data?.id} failed, will retry: ${(error as Error).message}`,
        );
        results.push({
          id: job.id,
          status: 'failed',
          output: { message: (error as Error).message },
        });
      }
    }
    return results;
  }

  /** Queue names allow letters, digits, `_`, `-`, `.` and `/`. */
  private queueOf(durable: string): string {
    return this.names.subject(durable).replace(/[^\w.\-/]/g, '_');
  }
}

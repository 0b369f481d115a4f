import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { EVENT_CATALOG, type ActivityEntry, type EventSubject } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import { Propagation, TxHost } from '@wp/persistence';
import type { Principal } from '@wp/security';
import type { FastifyInstance } from 'fastify';
import { DataSource } from 'typeorm';

export const ACTIVITY_OPTIONS = Symbol('ACTIVITY_OPTIONS');

export interface ActivityOptions {
  service: string;
  /** Flush period in ms (default 1000). */
  flushIntervalMs?: number;
  /** Entries per outbox event (default 500). */
  batchSize?: number;
  /** Entries held in memory at most (default 10 000); beyond, new entries are dropped. */
  maxBuffered?: number;
}

/**
 * Sentinel Pass agent activity of one service
 * (docs/architecture.md § Decisions where the contract is silent): a Fastify `onResponse` hook
 * notes every response to a request authenticated with an agent token as `api_request` (status <
 * 400) or `error` (status ≥ 400): route template, method, status, latency, client address. Entries
 * wait in a bounded in-memory buffer, off the request path; a timer flushes them in batches as
 * `<service>.activity.recorded` events through the service's outbox (one transaction per batch), so
 * once flushed nothing is lost. When the buffer is full new entries are dropped and counted (logged
 * once per flush) — activity is telemetry, it must never slow or fail the request. Entries still
 * buffered at a crash are lost; a graceful shutdown flushes. Services without an
 * `<service>.activity.recorded` subject record nothing.
 */
@Injectable()
export class ActivityRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ActivityRecorder');
  private readonly subject: EventSubject | null;
  private buffer: ActivityEntry[] = [];
  private dropped = 0;
  private job?: PeriodicJob;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(ACTIVITY_OPTIONS) private readonly options: ActivityOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly txHost: TxHost,
  ) {
    const subject = `${options.service}.activity.recorded`;
    this.subject = subject in EVENT_CATALOG ? (subject as EventSubject) : null;
  }

  get enabled(): boolean {
    return this.subject !== null;
  }

  onModuleInit(): void {
    if (!this.subject) return;
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onResponse', (request, reply, done) => {
      const principal = (request as unknown as { user?: Principal }).user;
      if (principal?.type === 'agent') {
        const status = reply.statusCode;
        this.record({
          agentUserId: principal.id,
          activityType: status >= 400 ? 'error' : 'api_request',
          endpoint: request.routeOptions.url ?? request.url.split('?')[0],
          method: request.method,
          statusCode: status,
          latencyMs: Math.round(reply.elapsedTime * 1000) / 1000,
          success: status < 400,
          clientAddress: request.ip ?? null,
        });
      }
      done();
    });
    this.job = periodicJobs.every(
      `${this.options.service}.activity-flush`,
      this.options.flushIntervalMs ?? 1000,
      () => this.flush(),
    );
  }

  /** Buffers one entry (id, service and timestamp filled in unless given). Never throws. */
  record(
    entry: Omit<ActivityEntry, 'id' | 'service' | 'occurredAt'> &
      Partial<Pick<ActivityEntry, 'id' | 'occurredAt'>>,
  ): void {
    if (!this.subject) return;
    if (this.buffer.length >= (this.options.maxBuffered ?? 10_000)) {
      this.dropped++;
      return;
    }
    this.buffer.push({
      id: entry.id ?? randomUUID(),
      service: this.options.service,
      occurredAt: entry.occurredAt ?? new Date().toISOString(),
      ...entry,
    });
  }

  /** Writes everything buffered to the outbox, in batches; serialised with earlier flushes. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow());
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    if (this.dropped > 0) {
      this.logger.warn(`activity buffer full: ${this.dropped} entries dropped`);
      this.dropped = 0;
    }
    const size = this.options.batchSize ?? 500;
    while (this.buffer.length > 0 && this.subject) {
      const batch = this.buffer.slice(0, size);
      try {
        // A transaction of its own, never one active where the flush was started from.
        await this.txHost.withTransaction(Propagation.RequiresNew, async () => {
          await this.outbox.enqueue(this.subject as 'auth.activity.recorded', { entries: batch });
        });
        this.buffer = this.buffer.slice(batch.length);
      } catch (error) {
        // Database unavailable: keep the entries (bounded) and retry at the next tick.
        this.logger.warn(`activity flush failed, will retry: ${(error as Error).message}`);
        return;
      }
    }
  }

  /** Before the database closes: what is buffered goes to the outbox. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    if (this.dataSource.isInitialized) await this.flush();
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type PeriodicJob, periodicJobs } from '@wp/observability';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { DataSource, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';
import {
  DeliveryStore,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type DeliveryResult,
  type EndpointStreak,
} from './delivery-store.js';
import { DispatchSignal } from './dispatch-signal.js';
import { EndpointHealth } from './endpoint-health.js';
import { EndpointQueues } from './endpoint-queues.js';
import { OutboundHttp } from './outbound-http.js';
import { decideRetry, type RetryPolicy } from './retry-schedule.js';
import { SlowEndpoints } from './slow-endpoints.js';
import { signingSecrets, signWebhook } from './webhook-signer.js';

/**
 * A leased delivery that waited in its queue longer than this, ms, checks that its endpoint is
 * still enabled (and renews its lease) before it is sent.
 */
const RECHECK_AFTER_MS = 1000;

/** An attempt slower than this, ms, stops its endpoint's deliveries being leased ahead. */
const SLOW_ATTEMPT_MS = 1000;

/**
 * How long, ms, an endpoint stays marked slow without a new slow attempt (then forgotten, at
 * the next claim: the poll runs one every `WEBHOOK_POLL_INTERVAL_MS`).
 */
const SLOW_FORGET_MS = 10 * 60_000;

/** Endpoint secrets kept opened in memory (least recently used dropped first). */
const SECRET_CACHE_SIZE = 1000;

/** Most attempt results stored in one transaction. */
const RESULT_BATCH = 100;

/**
 * Sends queued deliveries (docs/org.md § Webhooks, Dispatcher). Every org process runs one:
 * woken right after a transaction of any org process queued deliveries (`DispatchSignal`), and
 * every `WEBHOOK_POLL_INTERVAL_MS` for retries and anything a signal missed. It leases due
 * deliveries ahead into queues of its own, per endpoint — up to `WEBHOOK_LEASE_AHEAD` times the
 * concurrency (per endpoint and per process) — and an endpoint's leases belong to one process at
 * a time, so the per-endpoint limit `WEBHOOK_ENDPOINT_CONCURRENCY` holds over every process while
 * each attempt's slot is handed to the next queued delivery as soon as its request ends, without
 * a round trip to PostgreSQL. At most `WEBHOOK_MAX_IN_FLIGHT` requests at once in this process;
 * a slow endpoint fills its own slots and never the others'. It signs each body (Standard
 * Webhooks; both secrets during a rotation's overlap), POSTs it through the SSRF-filtering
 * client, and records the attempt (results that end together are written in one transaction, a
 * group commit): any 2xx succeeds; otherwise the retry schedule decides (jitter, `Retry-After`
 * on 429/503, 410 disables the endpoint).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly http: OutboundHttp;
  private readonly policy: RetryPolicy;
  private readonly leaseMs: number;
  /** This process's dispatcher in `webhook_delivery.leased_by`. */
  private readonly dispatcherId = randomUUID();
  private readonly queues: EndpointQueues;
  /** Most deliveries leased and not yet recorded in this process. */
  private readonly holdLimit: number;
  /** Leased and not yet recorded or given back. */
  private held = 0;
  /**
   * Endpoints whose last attempt here failed or took over {@link SLOW_ATTEMPT_MS}: no lease
   * ahead; forgotten {@link SLOW_FORGET_MS} after their last slow attempt.
   */
  private readonly slowEndpoints = new SlowEndpoints(SLOW_FORGET_MS);
  /** Sealed secret → opened secret, in order of use. */
  private readonly secrets = new Map<string, string>();
  private readonly attempts = new Set<Promise<void>>();
  private readonly results: {
    result: DeliveryResult;
    resolve: (streaks: Map<string, EndpointStreak>) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private writing?: Promise<void>;
  private job?: PeriodicJob;
  private filling?: Promise<void>;
  private again = false;
  private stopped = false;

  /**
   * Runs work in the async context the dispatcher was built in, not the caller's: a kick from a
   * transaction's commit hook would otherwise run `fill` inside the context of that finished
   * transaction, and its boundaries would join it (docs/decisions.md § Transactions in the
   * request context). Node's `AsyncLocalStorage.snapshot()`.
   */
  private readonly outsideCallerContext = AsyncLocalStorage.snapshot();

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: DeliveryStore,
    private readonly signal: DispatchSignal,
    private readonly health: EndpointHealth,
    private readonly box: AesGcmEnvelope,
    @Inject(ORG_CONFIG) private readonly config: OrgConfig,
  ) {
    this.http = new OutboundHttp(
      {
        allowedPrivateAddresses: config.WEBHOOK_ALLOWED_PRIVATE_ADDRESSES,
        allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      },
      config.WEBHOOK_TIMEOUT_MS,
    );
    this.policy = {
      scheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
      jitter: config.WEBHOOK_RETRY_JITTER,
      retryAfterMaxSeconds: config.WEBHOOK_RETRY_AFTER_MAX_SECONDS,
    };
    this.leaseMs = Math.max(config.WEBHOOK_LEASE_MS, config.WEBHOOK_TIMEOUT_MS + 1000);
    this.queues = new EndpointQueues(
      config.WEBHOOK_ENDPOINT_CONCURRENCY,
      config.WEBHOOK_MAX_IN_FLIGHT,
    );
    this.holdLimit = config.WEBHOOK_MAX_IN_FLIGHT * config.WEBHOOK_LEASE_AHEAD;
  }

  async onApplicationBootstrap(): Promise<void> {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        this.signal.committed(event.queryRunner.data);
      },
    };
    this.dataSource.subscribers.push(subscriber);
    await this.signal.onWake(() => this.kick());
    this.job = periodicJobs.every(
      'org.webhook-dispatch',
      this.config.WEBHOOK_POLL_INTERVAL_MS,
      () => this.kick(),
    );
    this.kick();
  }

  /**
   * Stops claiming, gives the deliveries still waiting in its queues back to the queue in
   * PostgreSQL, and waits for the attempts in flight (their results are recorded).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.job?.stop();
    await this.filling;
    await this.giveBack(this.queues.dropAll());
    await Promise.all([...this.attempts]);
    this.http.close();
  }

  /** Claims and starts what is due while there are free slots; concurrent calls coalesce. */
  kick(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.outsideCallerContext(() => this.fill())
      .catch((error: unknown) =>
        this.logger.warn(`claiming deliveries failed: ${(error as Error).message}`),
      )
      .finally(() => {
        this.filling = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when nothing is in flight (tests). */
  async idle(): Promise<void> {
    while (this.filling || this.attempts.size > 0) {
      await this.filling;
      await Promise.all([...this.attempts]);
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopped) {
      const slots = this.holdLimit - this.held;
      if (slots <= 0) return;
      // Busy: claim again once a quarter of the room is free, so each claim round leases many
      // (a round costs about the same for 10 deliveries as for 100).
      if (slots < this.holdLimit / 4 && this.queues.waiting > 0) return;
      const claimed = await this.store.claim(
        slots,
        {
          ahead: this.config.WEBHOOK_ENDPOINT_CONCURRENCY * this.config.WEBHOOK_LEASE_AHEAD,
          slow: this.config.WEBHOOK_ENDPOINT_CONCURRENCY,
          slowEndpointIds: this.slowEndpoints.live(Date.now()),
        },
        this.leaseMs,
        this.dispatcherId,
      );
      this.held += claimed.length;
      this.queues.push(claimed);
      this.pump();
      if (claimed.length === 0) return;
    }
  }

  /** Starts every queued delivery that has a free slot. */
  private pump(): void {
    if (this.stopped) return;
    for (const claim of this.queues.next()) this.start(claim);
  }

  private start(claim: ClaimedDelivery): void {
    let slotFreed = false;
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      this.queues.sent(claim.endpointId);
      this.pump();
    };
    const attempt = this.attempt(claim, freeSlot)
      .catch((error: unknown) =>
        this.logger.warn(
          `delivery ${claim.id}: ${(error as Error).message}; retried after its lease`,
        ),
      )
      .finally(() => {
        freeSlot();
        this.attempts.delete(attempt);
        this.held--;
        if (this.needsRefill(claim.endpointId)) this.kick();
      });
    this.attempts.add(attempt);
  }

  /**
   * Whether an attempt's end should claim more: once a quickly answering endpoint's queue is
   * down to half its window (claiming after every attempt would read the due rows once per
   * delivery; half a window is still many requests ahead), and after every attempt of a slow
   * one (its window is only its concurrency). New work of other endpoints wakes the dispatcher
   * by itself (`DispatchSignal`, the poll).
   */
  private needsRefill(endpointId: string): boolean {
    if (this.slowEndpoints.has(endpointId)) return true;
    const window = this.config.WEBHOOK_ENDPOINT_CONCURRENCY * this.config.WEBHOOK_LEASE_AHEAD;
    return this.queues.heldFor(endpointId) <= window / 2;
  }

  /** Gives leased deliveries that were not attempted back (uncounted), logging a failure. */
  private async giveBack(claims: ClaimedDelivery[]): Promise<void> {
    if (claims.length === 0) return;
    this.held -= claims.length;
    await this.store
      .release(claims, this.dispatcherId)
      .catch((error: unknown) =>
        this.logger.warn(
          `giving back ${claims.length} deliveries failed: ${(error as Error).message}; ` +
            'retried after their leases',
        ),
      );
  }

  /**
   * One attempt (`freeSlot` is called when the request is over, before the result is stored).
   * A delivery that waited in its queue longer than {@link RECHECK_AFTER_MS}, or so long that
   * its lease could end before the attempt would, first renews its lease — which also finds
   * out whether its endpoint was disabled or deleted meanwhile; then the delivery and the rest
   * of the endpoint's queue are given back unattempted.
   */
  private async attempt(claim: ClaimedDelivery, freeSlot: () => void): Promise<void> {
    const waited = Date.now() - claim.claimedAt;
    const leaseLeft = claim.lockedUntil.getTime() - Date.now();
    if (waited > RECHECK_AFTER_MS || leaseLeft < this.config.WEBHOOK_TIMEOUT_MS + 1000) {
      if (!(await this.store.renew(claim, this.leaseMs, this.dispatcherId))) {
        await this.store.release([claim], this.dispatcherId);
        await this.giveBack(this.queues.drop(claim.endpointId));
        return;
      }
    }
    const startedAt = new Date();
    const body = claim.body;
    const previous =
      claim.previousEncryptedSecret && claim.previousSecretExpiresAt
        ? {
            secret: this.secret(claim.previousEncryptedSecret),
            expiresAt: claim.previousSecretExpiresAt,
          }
        : null;
    const secrets = signingSecrets(this.secret(claim.encryptedSecret), previous, startedAt);
    const headers = signWebhook(claim.eventId, startedAt, body, secrets);
    const result = await this.http.post(claim.url, body, { ...headers });
    freeSlot();
    const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
    if (succeeded && result.durationMs <= SLOW_ATTEMPT_MS) {
      this.slowEndpoints.clear(claim.endpointId);
    } else if (this.slowEndpoints.mark(claim.endpointId, Date.now())) {
      // its queue would wait out one slow attempt after another: give it back
      void this.giveBack(this.queues.drop(claim.endpointId));
    }
    let outcome: DeliveryOutcome = { kind: 'succeeded' };
    if (!succeeded) {
      const decision = decideRetry(
        { attemptCount: claim.attemptCount, status: result.status, retryAfter: result.retryAfter },
        this.policy,
      );
      outcome =
        decision.kind === 'retry'
          ? { kind: 'retry', delayMs: decision.delayMs }
          : decision.kind === 'disable_endpoint'
            ? { kind: 'failed_and_disable', reason: 'gone' }
            : { kind: 'failed' };
    }
    const streaks = await this.write({
      claim,
      attempt: {
        startedAt,
        durationMs: result.durationMs,
        responseStatus: result.status,
        responseBody: result.body,
        error: result.error,
      },
      outcome,
    });
    const streak = streaks.get(claim.endpointId);
    if (!streak) return;
    if (outcome.kind === 'failed_and_disable') {
      await this.giveBack(this.queues.drop(claim.endpointId));
      await this.health.disabled(claim.endpointId, 'gone');
    } else if (streak.enabled) {
      const failingMs = Date.now() - streak.failingSince.getTime();
      if (failingMs > this.config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000) {
        await this.giveBack(this.queues.drop(claim.endpointId));
        await this.health.disableFailing(claim.endpointId);
      }
    }
  }

  /**
   * An endpoint's signing secret, opened once per sealed value and kept while it is among the
   * {@link SECRET_CACHE_SIZE} most recently used (a rotation seals a new value).
   */
  private secret(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      secret = this.box.decrypt(sealed);
      if (this.secrets.size >= SECRET_CACHE_SIZE) {
        this.secrets.delete(this.secrets.keys().next().value!);
      }
    } else {
      this.secrets.delete(sealed);
    }
    this.secrets.set(sealed, secret);
    return secret;
  }

  /**
   * Hands a finished attempt to the group commit: results that end while a batch is being
   * written go together in the next one (one transaction for all of them).
   */
  private write(result: DeliveryResult): Promise<Map<string, EndpointStreak>> {
    return new Promise((resolve, reject) => {
      this.results.push({ result, resolve, reject });
      this.flushResults();
    });
  }

  private flushResults(): void {
    if (this.writing) return;
    this.writing = (async () => {
      while (this.results.length > 0) {
        const batch = this.results.splice(0, RESULT_BATCH);
        try {
          const streaks = await this.store.recordAll(batch.map((b) => b.result));
          for (const b of batch) b.resolve(streaks);
        } catch (error) {
          for (const b of batch) b.reject(error);
        }
      }
    })().finally(() => {
      this.writing = undefined;
      if (this.results.length > 0) this.flushResults();
    });
  }
}

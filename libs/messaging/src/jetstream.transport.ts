import { backoffDelay } from '@wp/http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  EVENT_STREAMS,
  type EventEnvelope,
  type EventStream,
  streamOf,
  type EventSubject,
} from '@wp/contracts';
import {
  AckPolicy,
  DeliverPolicy,
  JSONCodec,
  RetentionPolicy,
  StorageType,
  headers as natsHeaders,
  nanos,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { EventTransport, type SubscriptionSpec } from './event-transport.js';
import { ConsumerMetrics } from './messaging.metrics.js';
import { JETSTREAM_OPTIONS, NATS_CONNECTION, type JetStreamOptions } from './nats.connection.js';
import { Namespacer } from './namespace.js';

/** Redelivery pause after a failed handler: 200 ms doubling per delivery, at most 30 s. */
const NAK_BACKOFF = { initialMs: 200, maxMs: 30_000 };

const codec = JSONCodec<EventEnvelope>();
const STREAM_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/**
 * A publish waits `ackTimeoutMs` for JetStream's acknowledgement and is sent again, with the same
 * `Nats-Msg-Id`, after a timeout or a "no responders" (503: the stream has no leader yet), at most
 * `attempts` times `pauseMs` apart; then the relay tries the batch again at its next wake-up. A
 * stream leader that dies holds the publishes sent to it until their timeout (it was 5 s); the
 * rest of the wait is the stream's election, which no client setting shortens (nats-server's
 * followers wait 4-9 s for a lost leader before they campaign; docs/operations.md § Production
 * topology under faults). Sending again is exactly-once because the whole budget (6.25 s) is far
 * inside the stream's duplicate window (2 min).
 */
export const PUBLISH_RETRY = { ackTimeoutMs: 1000, attempts: 5, pauseMs: 250 };
export const PUBLISH_DUPLICATE_WINDOW_MS = DUPLICATE_WINDOW_MS;

/**
 * The pull consumers' request: a pull lasts `expires` ms, and the server sends a heartbeat every
 * `idle_heartbeat` ms while it holds nothing to deliver; nats.js renews a pull after two missed
 * heartbeats. A pull held by a node that died is so renewed about 2 s later (it was about 10 s
 * with nats.js's default heartbeat of `expires / 2` and a 10 s pull), at the cost of one pull
 * request per consumer every 2 s while idle.
 */
export const PULL = { max_messages: 64, expires: 2000, idle_heartbeat: 1000 };

/**
 * JetStream implementation of {@link EventTransport}: one file-backed stream per producing
 * service (created if absent), durable pull consumers with explicit acks, redelivery with
 * back-off, and a supervisor that re-attaches a consumer after NATS restarts.
 */
@Injectable()
export class JetStreamTransport extends EventTransport {
  private readonly logger = new Logger('JetStream');
  private readonly specs: SubscriptionSpec[] = [];
  private readonly running = new Set<ConsumerMessages>();
  private readonly ensured = new Set<string>();
  private stopped = false;
  private jsm?: JetStreamManager;
  private js?: JetStreamClient;
  /** Whether the connection to NATS is up (status events of the client). */
  private connected = true;
  /** Rejects at the next disconnect: publishes in flight then fail at once. */
  private lost = disconnection();
  private readonly available: (() => void)[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly names: Namespacer,
    private readonly metrics: ConsumerMetrics,
    @Inject(JETSTREAM_OPTIONS) private readonly options: JetStreamOptions,
  ) {
    super();
    void this.watchConnection();
  }

  /**
   * Publishes and waits for JetStream's acknowledgement ({@link PUBLISH_RETRY}: 1 s per attempt,
   * 5 attempts, about 6 s at most). While NATS is
   * disconnected it fails at once, and a publish in flight fails the moment the connection
   * drops: nats.js would otherwise wait out the timeout for an acknowledgement that was lost
   * with the connection, holding the outbox relay for seconds after NATS is back (docs/
   * architecture.md § Data ownership and events). The event stays in the outbox either way.
   */
  async publish(envelope: EventEnvelope): Promise<void> {
    if (!this.connected) throw new Error('NATS is disconnected; the event waits in the outbox');
    const subject = this.names.subject(envelope.subject);
    await traced(`publish ${envelope.subject}`, SpanKind.PRODUCER, subject, envelope, async () => {
      const published = (async () => {
        await this.ensureStream(streamOf(envelope.subject));
        const h = natsHeaders();
        h.set('Nats-Msg-Id', envelope.id);
        await publishWithRetry(() =>
          this.client().publish(subject, codec.encode(envelope), {
            msgID: envelope.id,
            headers: h,
            timeout: PUBLISH_RETRY.ackTimeoutMs,
          }),
        );
      })();
      await Promise.race([published, this.lost]);
    });
  }

  override onAvailable(listener: () => void): void {
    this.available.push(listener);
  }

  /** Follows the client's status: disconnected, reconnected (then tells the listeners). */
  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      const type = String(status.type);
      if (type === 'disconnect' && this.connected) {
        this.connected = false;
        this.lost.fail();
        this.lost = disconnection();
      } else if (type === 'reconnect') {
        this.connected = true;
        for (const listener of this.available) listener();
      }
    }
  }

  subscribe(spec: SubscriptionSpec): void {
    this.specs.push(spec);
  }

  async start(): Promise<void> {
    this.stopped = false;
    for (const spec of this.specs) {
      await this.ensureConsumer(spec);
      void this.supervise(spec);
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    for (const messages of this.running) messages.stop();
    this.running.clear();
    return Promise.resolve();
  }

  /** Creates (or updates) the namespaced stream for one producing service. */
  async ensureStream(stream: EventStream): Promise<void> {
    const name = this.names.stream(stream);
    if (this.ensured.has(name)) return;
    const jsm = await this.manager();
    const config = {
      name,
      subjects: [this.names.subject(EVENT_STREAMS[stream])],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(STREAM_MAX_AGE_MS),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      num_replicas: this.options.streamReplicas,
    };
    let existing: Awaited<ReturnType<JetStreamManager['streams']['info']>> | undefined;
    try {
      existing = await jsm.streams.info(name);
    } catch {
      existing = undefined;
    }
    if (existing && existing.config.num_replicas !== config.num_replicas) {
      // A changed NATS_STREAM_REPLICAS: JetStream moves the stream to the new replica count.
      await jsm.streams.update(name, { ...existing.config, num_replicas: config.num_replicas });
    } else if (!existing) {
      try {
        await jsm.streams.add(config);
      } catch (error) {
        if (!/already in use|exists/i.test((error as Error).message)) throw error;
      }
    }
    this.ensured.add(name);
  }

  private async ensureConsumer(spec: SubscriptionSpec): Promise<void> {
    await this.ensureStream(spec.stream);
    const jsm = await this.manager();
    const stream = this.names.stream(spec.stream);
    const durable = this.names.durable(spec.durable);
    try {
      await jsm.consumers.info(stream, durable);
    } catch {
      await jsm.consumers.add(stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: this.names.subject(spec.subject),
        ack_wait: nanos(30_000),
        max_deliver: -1,
        max_ack_pending: 1000,
      });
    }
  }

  /** Consumes until stopped; after any interruption (NATS restart, consumer lost) attaches again. */
  private async supervise(spec: SubscriptionSpec): Promise<void> {
    while (!this.stopped) {
      try {
        await this.ensureConsumer(spec);
        const consumer = await this.client().consumers.get(
          this.names.stream(spec.stream),
          this.names.durable(spec.durable),
        );
        const messages = await consumer.consume(PULL);
        this.running.add(messages);
        try {
          for await (const msg of messages) await this.deliver(spec, msg);
        } finally {
          this.running.delete(messages);
        }
      } catch (error) {
        if (!this.stopped) {
          this.logger.warn(`consumer ${spec.durable} interrupted: ${(error as Error).message}`);
        }
      }
      if (!this.stopped) {
        this.ensured.clear();
        await sleep(500);
      }
    }
  }

  private async deliver(spec: SubscriptionSpec, msg: JsMsg): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = codec.decode(msg.data);
      envelope.subject = this.names.unprefix(msg.subject) as EventSubject;
    } catch {
      this.logger.error(`${spec.durable}: undecodable message on ${msg.subject}; dropped`);
      msg.term();
      return;
    }
    this.metrics.record(spec.durable, envelope, msg.info.deliveryCount, msg.info.pending);
    try {
      await traced(`process ${envelope.subject}`, SpanKind.CONSUMER, msg.subject, envelope, () =>
        spec.handler(envelope),
      );
      msg.ack();
    } catch (error) {
      const attempt = msg.info.deliveryCount;
      const delay = backoffDelay(attempt, NAK_BACKOFF);
      this.logger.warn(
        `${spec.durable}: event ${envelope.id} failed (attempt ${attempt}), retry in ${delay} ms: ${(error as Error).message}`,
      );
      msg.nak(delay);
    }
  }

  private client(): JetStreamClient {
    this.js ??= this.nc.jetstream();
    return this.js;
  }

  private async manager(): Promise<JetStreamManager> {
    this.jsm ??= await this.nc.jetstreamManager();
    return this.jsm;
  }
}

const tracer = trace.getTracer('@wp/messaging');

/** Runs `work` in a span of OpenTelemetry's messaging conventions (no-op while tracing is off). */
function traced<T>(
  name: string,
  kind: SpanKind,
  subject: string,
  envelope: EventEnvelope,
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    name,
    {
      kind,
      attributes: {
        'messaging.system': 'nats',
        'messaging.destination.name': subject,
        'messaging.message.id': envelope.id,
      },
    },
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A promise that rejects when `fail()` is called, handled so an unused one never warns. */
function disconnection(): Promise<never> & { fail: () => void } {
  let fail!: () => void;
  const promise = new Promise<never>((_resolve, reject) => {
    fail = () => reject(new Error('NATS disconnected; the event waits in the outbox'));
  });
  promise.catch(() => undefined);
  return Object.assign(promise, { fail });
}

/**
 * Runs `publish` until JetStream acknowledges it, again after an acknowledgement timeout or a
 * "no responders" (code `TIMEOUT` / `503`), {@link PUBLISH_RETRY}; any other error, or the last
 * attempt's, is thrown.
 */
export async function publishWithRetry<T>(publish: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await publish();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= PUBLISH_RETRY.attempts || (code !== 'TIMEOUT' && code !== '503')) throw error;
      await sleep(PUBLISH_RETRY.pauseMs);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ReadinessRegistry, startupPhases } from '@wp/observability';
import type { NatsConnection } from 'nats';
import { EventTransport } from './event-transport.js';
import { JetStreamTransport } from './jetstream.transport.js';
import {
  JETSTREAM_OPTIONS,
  NATS_CONNECTION,
  connectNats,
  type JetStreamOptions,
} from './nats.connection.js';
import { NatsRpcTransport } from './nats-rpc.transport.js';
import { stopOutboxRelay } from './outbox-relay.js';
import { RpcTransport } from './rpc-transport.js';
import { NatsSignalTransport } from './nats-signal.transport.js';
import { SignalTransport } from './signal-transport.js';
import { ConsumerMetrics } from './messaging.metrics.js';

export interface NatsTransportOptions {
  /** NATS server URL(s), comma separated. */
  url: string;
  /** Connection name (the service). */
  service: string;
  /** `NATS_STREAM_REPLICAS` (default 1). */
  streamReplicas?: number;
}

/**
 * Services mode's transports: events on JetStream, request/reply and signals on NATS. Registers the
 * readiness check `nats` (impact `degraded`) and drains the connection on shutdown, after the outbox relay's final flush. Import through
 * `MessagingModule.forRoot({ transports })`.
 */
@Module({})
export class NatsTransportModule implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly moduleRef: ModuleRef,
  ) {}

  static forRoot(options: NatsTransportOptions): DynamicModule {
    return {
      module: NatsTransportModule,
      providers: [
        {
          provide: NATS_CONNECTION,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry) => {
            const nc = await startupPhases.track('nats', () =>
              connectNats(options.url, options.service),
            );
            // Degraded, not required: while NATS is down the outbox keeps events in PostgreSQL
            // and requests are served (docs/operations.md § Readiness).
            readiness.register(
              'nats',
              async () => {
                if (nc.isClosed()) throw new Error('connection closed');
                await nc.flush();
              },
              'degraded',
            );
            return nc;
          },
        },
        ConsumerMetrics,
        {
          provide: JETSTREAM_OPTIONS,
          useValue: { streamReplicas: options.streamReplicas ?? 1 } satisfies JetStreamOptions,
        },
        { provide: EventTransport, useClass: JetStreamTransport },
        { provide: RpcTransport, useClass: NatsRpcTransport },
        { provide: SignalTransport, useClass: NatsSignalTransport },
      ],
      exports: [NATS_CONNECTION, EventTransport, RpcTransport, SignalTransport],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await stopOutboxRelay(this.moduleRef);
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

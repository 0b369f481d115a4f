import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ReadinessRegistry } from '@wp/observability';
import type { NatsConnection } from 'nats';
import { EventBus } from './event-bus.js';
import { EventTransport } from './event-transport.js';
import { JetStreamTransport } from './jetstream.transport.js';
import { NATS_CONNECTION, connectNats } from './nats.connection.js';
import { MESSAGING_OPTIONS, Namespacer, type MessagingOptions } from './namespace.js';
import { Outbox } from './outbox.js';
import { OutboxRelay } from './outbox-relay.js';
import { RpcClient, RpcServer } from './rpc.js';

/**
 * Events (outbox → JetStream → idempotent consumers) and request/reply for one service.
 * Needs the service's `DataSource` (DatabaseModule) whose entities include
 * `MESSAGING_ENTITIES`.
 */
@Module({})
export class MessagingModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  static forRoot(options: MessagingOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        {
          provide: NATS_CONNECTION,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry) => {
            const nc = await connectNats(options.url, options.service);
            readiness.register('nats', async () => {
              if (nc.isClosed()) throw new Error('connection closed');
              await nc.flush();
            });
            return nc;
          },
        },
        Namespacer,
        { provide: EventTransport, useClass: JetStreamTransport },
        Outbox,
        OutboxRelay,
        EventBus,
        RpcClient,
        RpcServer,
      ],
      exports: [
        NATS_CONNECTION,
        Namespacer,
        EventTransport,
        Outbox,
        OutboxRelay,
        EventBus,
        RpcClient,
        RpcServer,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

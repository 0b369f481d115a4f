import { Module, type DynamicModule } from '@nestjs/common';
import { EventBus } from './event-bus.js';
import { MESSAGING_OPTIONS, Namespacer, type MessagingOptions } from './namespace.js';
import { Outbox } from './outbox.js';
import { OutboxRelay } from './outbox-relay.js';
import { OutboxMetrics } from './messaging.metrics.js';
import { RpcClient, RpcServer } from './rpc.js';

export interface MessagingModuleOptions extends MessagingOptions {
  /**
   * The module providing `EventTransport` and `RpcTransport`: `NatsTransportModule` (services
   * mode) or `PostgresTransportModule` (embedded mode); chosen where the platform is wired.
   */
  transports: DynamicModule;
}

/**
 * Events (outbox → transport → idempotent consumers) and request/reply for one service, on the
 * transports given. Needs the service's `DataSource` (DatabaseModule) whose entities include
 * `MESSAGING_ENTITIES`.
 */
@Module({})
export class MessagingModule {
  static forRoot({ transports, ...options }: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      imports: [transports],
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        Namespacer,
        Outbox,
        OutboxRelay,
        OutboxMetrics,
        EventBus,
        RpcClient,
        RpcServer,
      ],
      exports: [
        transports,
        MESSAGING_OPTIONS,
        Namespacer,
        Outbox,
        OutboxRelay,
        EventBus,
        RpcClient,
        RpcServer,
      ],
    };
  }
}

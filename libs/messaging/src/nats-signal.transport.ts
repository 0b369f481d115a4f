import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from 'nats';
import { Namespacer } from './namespace.js';
import { NATS_CONNECTION } from './nats.connection.js';
import { SignalTransport, type SignalHandler } from './signal-transport.js';

/**
 * The NATS subject a signal travels on: the name under `_signal.` (then namespaced), outside every
 * service's JetStream stream (`org.>` and so on), so nothing stores it.
 */
export function signalWireSubject(name: string): string {
  return `_signal.${name}`;
}

/** Services mode's {@link SignalTransport}: core NATS publish/subscribe, at most once. */
@Injectable()
export class NatsSignalTransport extends SignalTransport implements OnApplicationShutdown {
  private readonly logger = new Logger('NatsSignal');
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly names: Namespacer,
  ) {
    super();
  }

  signal(name: string): Promise<void> {
    try {
      // Buffered by the client while disconnected; dropped only if the connection is closed.
      if (!this.nc.isClosed()) this.nc.publish(this.names.subject(signalWireSubject(name)));
    } catch (error) {
      this.logger.warn(`signal ${name}: ${(error as Error).message}`);
    }
    return Promise.resolve();
  }

  listen(name: string, handler: SignalHandler): Promise<void> {
    this.subscriptions.push(
      this.nc.subscribe(this.names.subject(signalWireSubject(name)), {
        callback: (err) => {
          if (!err) handler();
        },
      }),
    );
    return Promise.resolve();
  }

  onApplicationShutdown(): void {
    for (const sub of this.subscriptions) sub.unsubscribe();
  }
}

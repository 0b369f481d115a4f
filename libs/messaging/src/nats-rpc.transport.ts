import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RpcSubject } from '@wp/contracts';
import type { NatsConnection, Subscription } from 'nats';
import { MESSAGING_OPTIONS, Namespacer, type MessagingOptions } from './namespace.js';
import { NATS_CONNECTION } from './nats.connection.js';
import { RpcTransport, type RpcResponder } from './rpc-transport.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The NATS subject an RPC travels on: the catalog name under `_rpc.` (then namespaced). Catalog
 * names such as `auth.rpc.users.find_by_email` begin with a service name, so on their own they
 * fall inside that service's event stream (`auth.>`), and JetStream would answer every request
 * with a publish acknowledgement before the real responder could. Nothing stores `_rpc.>`.
 */
export function rpcWireSubject(subject: RpcSubject): string {
  return `_rpc.${subject}`;
}

/** Services mode: NATS request/reply; replicas of a service share a queue group. */
@Injectable()
export class NatsRpcTransport extends RpcTransport implements OnApplicationShutdown {
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly names: Namespacer,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {
    super();
  }

  async request(subject: string, body: string, timeoutMs: number): Promise<string> {
    const msg = await this.nc.request(this.wire(subject), encoder.encode(body), {
      timeout: timeoutMs,
    });
    return decoder.decode(msg.data);
  }

  serve(subject: string, respond: RpcResponder): Promise<void> {
    const sub = this.nc.subscribe(this.wire(subject), {
      queue: this.options.service,
      callback: (err, msg) => {
        if (err) return;
        void respond(decoder.decode(msg.data)).then((reply) => msg.respond(encoder.encode(reply)));
      },
    });
    this.subscriptions.push(sub);
    return Promise.resolve();
  }

  onApplicationShutdown(): void {
    for (const sub of this.subscriptions) sub.unsubscribe();
  }

  private wire(subject: string): string {
    return this.names.subject(rpcWireSubject(subject as RpcSubject));
  }
}

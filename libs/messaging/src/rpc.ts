import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RPC_CATALOG, type RpcRequest, type RpcResponse, type RpcSubject } from '@wp/contracts';
import { DomainError } from '@wp/http';
import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { NATS_CONNECTION } from './nats.connection.js';
import { MESSAGING_OPTIONS, Namespacer, type MessagingOptions } from './namespace.js';

const codec = JSONCodec<unknown>();

type RpcReply = { ok: true; result: unknown } | { ok: false; error: string };

/**
 * The NATS subject an RPC travels on: the catalog name under `_rpc.` (then namespaced). Catalog
 * names such as `auth.rpc.users.find_by_email` begin with a service name, so on their own they
 * fall inside that service's event stream (`auth.>`), and JetStream would answer every request
 * with a publish acknowledgement before the real responder could. Nothing stores `_rpc.>`.
 */
export function rpcWireSubject(subject: RpcSubject): string {
  return `_rpc.${subject}`;
}

/**
 * NATS request/reply for questions that need an authoritative answer from another service
 * (ARCHITECTURE § 4 "Consistency"). Requests and responses are validated against the contracts
 * catalog. A missing or slow responder is a 503 `UPSTREAM_UNAVAILABLE`, never a guess.
 */
@Injectable()
export class RpcClient {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly names: Namespacer,
  ) {}

  async request<S extends RpcSubject>(
    subject: S,
    request: RpcRequest<S>,
    timeoutMs = 3000,
  ): Promise<RpcResponse<S>> {
    const spec = RPC_CATALOG[subject];
    let reply: RpcReply;
    try {
      const msg = await this.nc.request(
        this.names.subject(rpcWireSubject(subject)),
        codec.encode(spec.request.parse(request)),
        { timeout: timeoutMs },
      );
      reply = codec.decode(msg.data) as RpcReply;
    } catch (error) {
      throw new DomainError('unavailable', 'UPSTREAM_UNAVAILABLE', 'Service unavailable', {
        detail: `A dependency did not answer (${(error as Error).message}). Retry shortly.`,
      });
    }
    if (!reply.ok) {
      throw new DomainError('unavailable', 'UPSTREAM_FAILED', 'Service unavailable', {
        detail: 'A dependency failed to answer. Retry shortly.',
      });
    }
    return spec.response.parse(reply.result) as RpcResponse<S>;
  }
}

/** Serves RPC subjects in the queue group of this service (replicas share the load). */
@Injectable()
export class RpcServer implements OnApplicationShutdown {
  private readonly logger = new Logger('RpcServer');
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly names: Namespacer,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  handle<S extends RpcSubject>(
    subject: S,
    handler: (request: RpcRequest<S>) => Promise<RpcResponse<S>>,
  ): void {
    const spec = RPC_CATALOG[subject];
    const sub = this.nc.subscribe(this.names.subject(rpcWireSubject(subject)), {
      queue: this.options.service,
      callback: (err, msg) => {
        if (err) return;
        void (async () => {
          let reply: RpcReply;
          try {
            const request = spec.request.parse(codec.decode(msg.data)) as RpcRequest<S>;
            reply = { ok: true, result: spec.response.parse(await handler(request)) };
          } catch (error) {
            this.logger.error(`${subject}: ${(error as Error).message}`);
            reply = { ok: false, error: 'failed' };
          }
          msg.respond(codec.encode(reply));
        })();
      },
    });
    this.subscriptions.push(sub);
  }

  onApplicationShutdown(): void {
    for (const sub of this.subscriptions) sub.unsubscribe();
  }
}

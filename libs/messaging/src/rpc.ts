import { Injectable, Logger } from '@nestjs/common';
import { RPC_CATALOG, type RpcRequest, type RpcResponse, type RpcSubject } from '@wp/contracts';
import { DomainError } from '@wp/http';
import { RpcTransport } from './rpc-transport.js';

type RpcReply = { ok: true; result: unknown } | { ok: false; error: string };

/**
 * Request/reply for questions that need an authoritative answer from another service
 * (docs/architecture.md § Data ownership and events), over the mode's {@link RpcTransport}.
 * Requests and responses are validated against the contracts catalog. A missing or slow responder is a 503
 * `UPSTREAM_UNAVAILABLE`, never a guess.
 */
@Injectable()
export class RpcClient {
  constructor(private readonly transport: RpcTransport) {}

  async request<S extends RpcSubject>(
    subject: S,
    request: RpcRequest<S>,
    timeoutMs = 3000,
  ): Promise<RpcResponse<S>> {
    const spec = RPC_CATALOG[subject];
    let reply: RpcReply;
    try {
      const body = JSON.stringify(spec.request.parse(request));
      reply = JSON.parse(await this.transport.request(subject, body, timeoutMs)) as RpcReply;
    } catch (error) {
      throw new DomainError('unavailable', 'UPSTREAM_UNAVAILABLE', 'Service unavailable', {
        detail: `A dependency did not answer (${(error as Error).message}). Retry shortly.`,
        retryAfter: 1,
      });
    }
    if (!reply.ok) {
      throw new DomainError('unavailable', 'UPSTREAM_FAILED', 'Service unavailable', {
        detail: 'A dependency failed to answer. Retry shortly.',
        retryAfter: 1,
      });
    }
    return spec.response.parse(reply.result) as RpcResponse<S>;
  }
}

/** Serves RPC subjects; one replica of this service answers each request. */
@Injectable()
export class RpcServer {
  private readonly logger = new Logger('RpcServer');

  constructor(private readonly transport: RpcTransport) {}

  handle<S extends RpcSubject>(
    subject: S,
    handler: (request: RpcRequest<S>) => Promise<RpcResponse<S>>,
  ): void {
    const spec = RPC_CATALOG[subject];
    const served = this.transport.serve(subject, async (body) => {
      let reply: RpcReply;
      try {
        const request = spec.request.parse(JSON.parse(body)) as RpcRequest<S>;
        reply = { ok: true, result: spec.response.parse(await handler(request)) };
      } catch (error) {
        this.logger.error(`${subject}: ${(error as Error).message}`);
        reply = { ok: false, error: 'failed' };
      }
      return JSON.stringify(reply);
    });
    served.catch((error: unknown) =>
      this.logger.error(`cannot serve ${subject}: ${(error as Error).message}`),
    );
  }
}

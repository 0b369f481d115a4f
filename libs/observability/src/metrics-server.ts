import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { errorDocument } from '@wp/http';
import type { Registry } from 'prom-client';
import { METRICS_REGISTRY } from './metrics-registry.js';

/** Where the metrics listener binds (`MetricsOptions.listen`), or null for none. */
export const METRICS_LISTEN = Symbol('METRICS_LISTEN');

/**
 * `GET /metrics` (Prometheus text format 0.0.4) on a port of its own, `METRICS_PORT`, so the
 * public port of an app — the gateway's is the platform's one public origin — answers the API
 * and its health probes only (docs/operations.md § Metrics): the exposition names internal
 * routes, consumers and rates and weighs hundreds of kilobytes. A plain `node:http` listener,
 * as prom-client's own example serves a registry: anything but `GET`/`HEAD /metrics` is a
 * JSON:API 404. Opened once the application has bootstrapped, closed with it.
 * @see https://github.com/siimon/prom-client#usage
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MetricsServer');
  private server?: Server;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(METRICS_LISTEN) private readonly listen: { port: number; host: string } | null,
  ) {}

  /** `http://<host>:<port>` of the listener once open (the port chosen when 0 was asked). */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('the metrics listener is not open');
    const host =
      address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.listen || this.server) return;
    const server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listen!.port, this.listen!.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`metrics on ${this.url}/metrics`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('x-content-type-options', 'nosniff');
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      const body = JSON.stringify(errorDocument(404, 'Only GET /metrics is served here.'));
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(body);
      return;
    }
    try {
      const text = await this.registry.metrics();
      response.writeHead(200, { 'content-type': this.registry.contentType });
      response.end(request.method === 'HEAD' ? undefined : text);
    } catch (error) {
      this.logger.error({ err: error }, 'metrics collection failed');
      const body = JSON.stringify(errorDocument(500, 'The metrics could not be collected.'));
      response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    }
  }
}

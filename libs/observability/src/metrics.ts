import { Inject, Injectable, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { onDatabaseUnavailable } from '@wp/http';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

import { METRICS_REGISTRY } from './metrics-registry.js';
import { METRICS_LISTEN, MetricsServer } from './metrics-server.js';

export { METRICS_REGISTRY };

/**
 * Prometheus metrics of one service: Node defaults plus `http_request_duration_seconds`
 * (histogram; labels method, route template, status code), recorded by a Fastify hook, and
 * `db_unavailable_errors_total` (counter; requests answered 503 because PostgreSQL was
 * unreachable, docs/architecture.md § Errors; the registry's default label `service`).
 */
@Injectable()
export class HttpMetrics implements OnModuleInit {
  private readonly histogram: Histogram<'method' | 'route' | 'status_code'>;
  private readonly databaseUnavailable: Counter;
  private readonly rateLimited: Counter<'route'>;

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency in seconds',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.databaseUnavailable = new Counter({
      name: 'db_unavailable_errors_total',
      help: 'Requests answered 503 because PostgreSQL was unreachable (restart, failover, refused)',
      registers: [registry],
    });
    this.rateLimited = new Counter({
      name: 'http_rate_limited_total',
      help: 'Requests answered 429 (rate limited), by route template',
      labelNames: ['route'],
      registers: [registry],
    });
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    onDatabaseUnavailable(fastify, () => this.databaseUnavailable.inc());
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.histogram.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      if (reply.statusCode === 429) this.rateLimited.inc({ route });
      done();
    });
  }
}

export interface MetricsOptions {
  service: string;
  /**
   * Where the metrics listener binds (`METRICS_PORT`, `METRICS_HOST`; docs/operations.md
   * § Metrics); port 0 takes any free port. Without it no listener is opened.
   */
  listen?: { port: number; host: string };
}

/**
 * The service's Prometheus registry (`METRICS_REGISTRY`, label `service`), its HTTP metrics, and
 * `GET /metrics` on a listener of its own ({@link MetricsServer}), never on the public port.
 */
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsOptions): DynamicModule {
    const registry = new Registry();
    registry.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ register: registry });
    return {
      module: MetricsModule,
      global: true,
      providers: [
        { provide: METRICS_REGISTRY, useValue: registry },
        { provide: METRICS_LISTEN, useValue: options.listen ?? null },
        HttpMetrics,
        MetricsServer,
      ],
      exports: [METRICS_REGISTRY, MetricsServer],
    };
  }
}

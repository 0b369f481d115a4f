import type { IncomingHttpHeaders } from 'node:http';
import cors from '@fastify/cors';
import proxy from '@fastify/http-proxy';
import rateLimit from '@fastify/rate-limit';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '@wp/http';
import { EDGE_RATE_LIMIT_STORE, type EdgeRateLimitStore } from '@wp/platform';
import { ApiKeyRegistry } from '@wp/security';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway.config.js';
import { edgePrecheck } from './api-key-precheck.js';
import { edgeErrorHandler } from './edge-errors.js';
import { installStreamedBodies } from './streamed-bodies.js';
import { proxyRoutes, upstreamUrls } from './routes.js';
import { upstreamAnswers } from './upstream-answers.js';
import { METRICS_REGISTRY } from '@wp/observability';
import { Counter, type Registry } from 'prom-client';

const ALLOWED_HEADERS = [
  'Api-Key',
  'Authorization',
  'Admin-Access',
  'Content-Type',
  'Idempotency-Key',
  // Conditional GETs of single resources (ETag is exposed below).
  'If-None-Match',
  'X-Request-Id',
];

/**
 * Installs the edge behaviour on the gateway's Fastify instance: CORS for configured origins,
 * a coarse per-address rate limit (in Redis, shared by replicas; in the gateway process in
 * embedded mode: `EDGE_RATE_LIMIT_STORE`), and one reverse proxy per
 * route prefix (@fastify/http-proxy) that forwards `X-Request-Id` and the client address
 * (`X-Forwarded-For`, replaced, never appended: the gateway is the edge), keeps
 * the path unchanged, balances a service's replicas when several are configured, retries what
 * certainly did not run on another replica, and turns upstream failures into JSON:API 503/504/502
 * answers (upstream-answers.ts).
 */
export async function installProxy(
  app: NestFastifyApplication,
  config: GatewayConfig,
): Promise<void> {
  const rateLimitStore = app.get<EdgeRateLimitStore>(EDGE_RATE_LIMIT_STORE);
  const registry = app.get(ApiKeyRegistry);

  if (config.CORS_ORIGINS.length > 0) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS.includes('*') ? true : config.CORS_ORIGINS,
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'Content-Disposition', 'ETag'],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      maxAge: 600,
    });
  }

  if (config.GATEWAY_RATE_LIMIT > 0) {
    // docs/operations.md § Metrics
    const rateLimitHits = new Counter({
      name: 'gateway_rate_limit_hits_total',
      help: "Requests refused with 429 by the gateway's per-address limit",
      registers: [app.get<Registry>(METRICS_REGISTRY)],
    });
    await app.register(rateLimit, {
      global: true,
      max: config.GATEWAY_RATE_LIMIT,
      timeWindow: 60_000,
      ...rateLimitStore,
      nameSpace: 'gateway-rate-limit:',
      skipOnError: true,
      allowList: (request: FastifyRequest) => request.url.startsWith('/health/'),
      onExceeded: () => rateLimitHits.inc(),
      errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
        new DomainError('rate_limited', 'RATE_LIMITED', 'Too many requests', {
          detail: `Too many requests from this address; retry after ${context.after}.`,
        }),
    });
  }

  // The proxy routes live in a scope of their own: its error handler answers the gateway's own
  // refusals in the JSON:API body, its body parsers stream bodies on (edge-errors.ts,
  // streamed-bodies.ts).
  await app.register(async (scope: FastifyInstance) => {
    scope.setErrorHandler(edgeErrorHandler);
    installStreamedBodies(scope, config.HTTP_MAX_JSON_DEPTH);
    await installProxyRoutes(scope, config, registry);
  });
}

async function installProxyRoutes(
  scope: FastifyInstance,
  config: GatewayConfig,
  registry: ApiKeyRegistry,
): Promise<void> {
  for (const route of proxyRoutes(config)) {
    const bodyLimit =
      route.service === 'analytics'
        ? config.GATEWAY_ANALYTICS_BODY_LIMIT_BYTES
        : config.HTTP_BODY_LIMIT_BYTES;
    const upstream = upstreamAnswers(route.service, upstreamUrls(config, route.service));
    scope.addHook('onClose', () => upstream.close());
    await scope.register(proxy, {
      upstream: upstream.base,
      ...upstream.dispatcher,
      prefix: route.prefix,
      rewritePrefix: route.prefix,
      preHandler: edgePrecheck(registry, route.apiKey, bodyLimit),
      proxyPayloads: false,
      httpMethods: ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'],
      replyOptions: {
        timeout: config.GATEWAY_UPSTREAM_TIMEOUT_MS,
        maxRetriesOn503: 0,
        // reply-from hands over its own copy of the request headers: set ours in place
        // instead of copying every header once more per request.
        rewriteRequestHeaders: (request: FastifyRequest, headers: IncomingHttpHeaders) => {
          headers['x-request-id'] = String(request.id);
          headers['x-forwarded-for'] = request.ip;
          headers['x-forwarded-proto'] = request.protocol;
          return headers;
        },
        retryDelay: upstream.retryDelay,
        onError: upstream.onError,
      },
    } as unknown as Parameters<typeof proxy>[1]);
  }
}

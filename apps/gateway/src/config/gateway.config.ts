import { type z } from 'zod';
import { env, platformSchema } from '@wp/config';

/** Gateway settings (README § Configuration). The gateway verifies no tokens: services do. */
export const gatewayConfigSchema = platformSchema
  .omit({
    JWT_PUBLIC_KEY: true,
    JWT_ISSUER: true,
    JWT_AUDIENCE: true,
    ACCESS_TOKEN_MAX_LIFETIME_SECONDS: true,
    TRUST_PROXY: true,
    MIGRATE_ON_START: true,
  })
  .extend({
    GATEWAY_PORT: env.port(8080),
    METRICS_PORT: env.listenPort(9080),
    GATEWAY_HOST: env.string('0.0.0.0'),
    /**
     * Where each service answers: one base URL (a Kubernetes Service, a compose service) or
     * several, comma separated — its replicas, balanced by the gateway (docs/architecture.md §
     * Upstream failures at the gateway).
     */
    AUTH_UPSTREAM_URL: env.urls('http://127.0.0.1:8081', ['http', 'https']),
    ORG_UPSTREAM_URL: env.urls('http://127.0.0.1:8082', ['http', 'https']),
    WALLET_UPSTREAM_URL: env.urls('http://127.0.0.1:8083', ['http', 'https']),
    ANALYTICS_UPSTREAM_URL: env.urls('http://127.0.0.1:8084', ['http', 'https']),
    /** Requests per minute per client address; 0 turns the limit off. */
    GATEWAY_RATE_LIMIT: env.int(20_000, 0),
    /** Upstream answer deadline, ms; beyond it the gateway answers 504. */
    GATEWAY_UPSTREAM_TIMEOUT_MS: env.int(30_000, 100),
    /** Body limit of analytics ingestion routes (Langfuse batches reach 3.5 MB). */
    GATEWAY_ANALYTICS_BODY_LIMIT_BYTES: env.int(5 * 1_048_576, 1024),
    /** Allowed CORS origins, comma separated; `*` allows any; empty disables CORS. */
    CORS_ORIGINS: env.list([]),
    /**
     * Trust `X-Forwarded-For` from an ingress in front of the gateway (default: the gateway is the
     * edge).
     */
    TRUST_PROXY: env.bool(false),
    /** Require `Api-Key` on analytics paths too (docs/api.md § Authentication 1, literally). */
    ANALYTICS_REQUIRE_API_KEY: env.bool(false),
  });
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

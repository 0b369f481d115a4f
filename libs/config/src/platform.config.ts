import { z } from 'zod';
import { env } from './fields.js';

/**
 * Settings every service shares (README § Configuration). Each service's schema extends it.
 *
 * - `REDIS_URL`, `REDIS_KEY_PREFIX`, `REDIS_COMMAND_TIMEOUT_MS`: cache, deny-list, rate limits,
 *   Api-Key registry.
 * - `NATS_URL`, `EVENTS_NAMESPACE`: JetStream events and request/reply. A namespace `t1` turns
 *   subject `org.organization.created` into `t1.org.organization.created` and stream `ORG` into
 *   `t1_ORG`, so test runs never collide.
 * - `JWT_PUBLIC_KEY`, `JWT_ISSUER`, `JWT_AUDIENCE`, `ACCESS_TOKEN_MAX_LIFETIME_SECONDS`: how
 *   access tokens issued by auth are verified (PEM P-256 keys, `iss`, `aud`, longest lifetime).
 * - `PLATFORM_MODE`: `services` (Redis and NATS, as deployed) or `embedded` (what Redis and NATS
 *   do lives in the PostgreSQL database `PLATFORM_DATABASE_URL`; docs/architecture.md § Two modes).
 *   In embedded mode `REDIS_*` and `NATS_URL` are not used.
 * - `LOG_FORMAT`: `auto` (readable lines in a terminal outside production, else JSON), `json`,
 *   `pretty`; `LOG_REQUESTS=false` drops the per-request line (docs/architecture.md § Logs).
 */
export const platformSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: env.logLevel(),
  LOG_FORMAT: z
    .enum(['auto', 'json', 'pretty'], { message: 'expected auto, json or pretty' })
    .default('auto'),
  LOG_REQUESTS: env.bool(true),
  REDIS_URL: env.url('redis://127.0.0.1:6379', ['redis', 'rediss']),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]*$/, 'expected letters, digits, _ : . -')
    .default('wp:'),
  /**
   * Bound of one Redis command, ms: a Redis that does not answer costs a request at most this
   * before its 503 (docs/operations.md § Without Redis).
   */
  REDIS_COMMAND_TIMEOUT_MS: env.int(500, 50),
  /**
   * One NATS server or the nodes of a cluster, comma separated (`nats://nats-0:4222,nats://nats-1:4222`):
   * the client connects to any and moves to another when its node goes (docs/operations.md §
   * NATS JetStream in production). Each part is checked as a URL.
   */
  NATS_URL: env
    .urls('nats://127.0.0.1:4222', ['nats', 'tls', 'ws', 'wss'])
    .transform((list) => list.join(',')),
  /** Replicas of each JetStream stream the services create (3 on a 3-node NATS cluster). */
  NATS_STREAM_REPLICAS: env.int(1, 1).refine((n) => n <= 5, 'at most 5 (JetStream limit)'),
  EVENTS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'expected letters, digits, _ or -')
    .default(''),
  PLATFORM_MODE: z
    .enum(['services', 'embedded'], { message: 'expected services or embedded' })
    .default('services'),
  PLATFORM_DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/wp_platform', [
    'postgres',
    'postgresql',
  ]),
  JWT_PUBLIC_KEY: env.pem('public key (run `npm start` once to generate development keys)'),
  JWT_ISSUER: env.string('workspace-platform'),
  /**
   * `aud` of access tokens (RFC 9068 § 3): the platform's API as one resource server. Auth
   * writes it, every service refuses a token without it or with another.
   */
  JWT_AUDIENCE: env.string('workspace-platform-api'),
  /**
   * Longest access token lifetime a service accepts (`exp - iat`), seconds: a token signed with
   * the real key but living longer (a ten-year `exp`) is refused. At least auth's
   * `ACCESS_TOKEN_TTL_SECONDS`.
   */
  ACCESS_TOKEN_MAX_LIFETIME_SECONDS: env.int(3600, 60),
  HTTP_BODY_LIMIT_BYTES: env.int(1_048_576, 1024),
  /**
   * Most levels of objects and arrays a JSON request body may nest; deeper is 400 before it is
   * parsed (docs/decisions.md § Wire format). The gateway checks bodies it streams through too.
   */
  HTTP_MAX_JSON_DEPTH: env.int(64, 2).refine((n) => n <= 1000, 'at most 1000'),
  TRUST_PROXY: env.bool(true),
  /** Bound of a graceful shutdown (SIGTERM → drain → exit 0), seconds; beyond it exit 1. */
  SHUTDOWN_TIMEOUT_SECONDS: env.int(30, 1),
  /**
   * After SIGTERM, how long the process keeps accepting connections, answering each request 503
   * with `Retry-After` and `Connection: close`, before it stops listening, seconds
   * (docs/operations.md § Shutdown).
   */
  SHUTDOWN_DRAIN_SECONDS: env.int(3, 0),
  /**
   * Where `GET /metrics` is served: a port of its own, never the public one (docs/operations.md
   * § Metrics). Each app has its default (gateway 9080, auth 9081, org 9082, wallet 9083,
   * analytics 9084); 0 takes any free port.
   */
  METRICS_PORT: env.listenPort(9090),
  METRICS_HOST: env.string('0.0.0.0'),
  /**
   * `Strict-Transport-Security` on every answer, e.g. `max-age=31536000; includeSubDomains`, for
   * deployments whose clients reach the platform over TLS; empty (the default): not sent
   * (docs/operations.md § Response headers).
   */
  STRICT_TRANSPORT_SECURITY: z
    .string()
    .regex(
      /^$|^max-age=\d+(; ?includeSubDomains)?(; ?preload)?$/,
      'expected max-age=<seconds>[; includeSubDomains][; preload], or empty',
    )
    .default(''),
  /** Apply pending migrations at boot under an advisory lock (services; not the gateway). */
  MIGRATE_ON_START: env.bool(false),
});
export type PlatformConfig = z.infer<typeof platformSchema>;
export type PlatformMode = PlatformConfig['PLATFORM_MODE'];

/** The database URL of one service: `<SERVICE>_DATABASE_URL`, default a local database `wp_<service>`. */
export function databaseUrlField(service: string) {
  return env.url(`postgres://postgres@127.0.0.1:5432/wp_${service}`, ['postgres', 'postgresql']);
}

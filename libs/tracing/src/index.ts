import type { Span } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | undefined;

/** What removes credentials from a URL (`redactUrl` of @wp/http) and from a bare query string. */
export interface UrlRedaction {
  url: (url: string) => string;
  query: (query: string) => string;
}

/** Span attributes that hold a URL or a query string (stable and older HTTP conventions). */
const URL_ATTRIBUTES = ['url.full', 'http.url', 'http.target'] as const;

/**
 * Rewrites the URL attributes a span was started with through `redact`
 * (docs/operations.md § Logs and traces). The SDK's spans expose the attributes they hold; a
 * span that does not (not recording) has nothing to rewrite.
 */
export function redactSpanUrls(span: Span, redact: UrlRedaction): void {
  const attributes = (span as { attributes?: Record<string, unknown> }).attributes;
  if (!attributes) return;
  for (const name of URL_ATTRIBUTES) {
    const value = attributes[name];
    if (typeof value === 'string' && value.includes('?'))
      span.setAttribute(name, redact.url(value));
  }
  const query = attributes['url.query'];
  if (typeof query === 'string') span.setAttribute('url.query', redact.query(query));
}

/**
 * Optional OpenTelemetry tracing (docs/operations.md § Tracing), started by each app's `main`
 * BEFORE anything else is loaded (instrumentations patch `http` and `pg` as they are required):
 * `import '@wp/tracing'` is the first import of `main.ts`, and this module starts the SDK when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set — off otherwise,
 * at no cost (the SDK is not even loaded). Traces of HTTP server and client calls and of PostgreSQL queries go to the OTLP/HTTP
 * endpoint (`<endpoint>/v1/traces`, JSON); the service name is `OTEL_SERVICE_NAME`, else
 * `wp-<service>`. The standard `OTEL_*` variables of the SDK apply (sampler, batch delay,
 * headers, resource attributes). Each HTTP server span carries the request id (`http.request.id`,
 * set by libs/http) and NATS publish/deliver spans are made by libs/messaging through
 * `@opentelemetry/api` (no-ops while tracing is off).
 * Credential-like query parameters are redacted from the URL attributes of every HTTP span,
 * server and client (`url.query`, `url.full`, `http.target`; {@link redactSpanUrls}).
 * @param service the app, for the default service name
 * @param redact how URLs lose their credentials (`redactUrl`/`redactQuery` of @wp/http)
 * @returns whether tracing started
 */
export function startTracing(
  service: string,
  redact: UrlRedaction,
  // eslint-disable-next-line no-restricted-syntax -- read before any config module loads
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (sdk) return true;
  if (!env['OTEL_EXPORTER_OTLP_ENDPOINT'] && !env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) {
    return false;
  }
  env['OTEL_SERVICE_NAME'] ??= `wp-${service}`;
  // Loaded only when tracing is on: the SDK and its instrumentations cost about 0.4 s of CPU at
  // start-up (docs/operations.md § Start-up time).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { NodeSDK } =
    require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not worth a trace each.
        ignoreIncomingRequestHook: (request) =>
          request.url === '/metrics' || (request.url ?? '').startsWith('/health/'),
        // Called once the span holds its attributes.
        requestHook: (span) => redactSpanUrls(span, redact),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // `http` is already loaded (the app's imports): requiring it again lets the instrumentation
  // patch the shared module object (server spans hook `Server.prototype.emit`).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('http');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('https');
  const shutdown = () => {
    void sdk?.shutdown().catch(() => undefined);
  };
  process.once('beforeExit', shutdown);
  return true;
}

/** Flushes and stops the SDK (graceful shutdown); resolves at once when tracing is off. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}

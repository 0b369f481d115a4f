import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { JsonApiErrorFilter } from './errors/json-api-error.filter.js';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  installClosingGuard,
  jsonApiErrorBody,
  securityHeaders,
  type ErrorBodyFormat,
} from './framework-errors.js';
import { ValidationFailedError } from './errors/validation-error.js';
import { noStore, routeIsNoStore } from './no-store.js';
import {
  DEFAULT_MAX_JSON_DEPTH,
  jsonDepthExceeds,
  jsonTooDeepError,
} from './validation/json-depth.js';
import {
  findLoneSurrogate,
  findNul,
  findNulParameter,
  mayHoldLoneSurrogate,
  NUL_DETAIL,
  UNPAIRED_SURROGATE_DETAIL,
} from './validation/nul-guard.js';
import { RequestValidationPipe } from './validation/request-validation.pipe.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface HttpAppOptions {
  /** Maximum request body, bytes. */
  bodyLimit: number;
  /**
   * Most levels of objects and arrays of a JSON body (`HTTP_MAX_JSON_DEPTH`, default 64): deeper
   * is refused with 400 before it is parsed (json-depth.ts).
   */
  maxJsonDepth?: number;
  /**
   * Longest path parameter the router accepts, characters (default Fastify's 100; longer is
   * 414). The gateway's routes end in one wildcard holding the rest of the path, so it takes
   * any length there and leaves each segment's limit to the service.
   */
  maxParamLength?: number;
  /**
   * `Strict-Transport-Security` on every answer (`STRICT_TRANSPORT_SECURITY`); empty or absent:
   * not sent (docs/operations.md § Response headers).
   */
  strictTransportSecurity?: string;
  /** Trust `X-Forwarded-*` from the gateway / ingress. */
  trustProxy: boolean;
  /** Prefix of every contract route, e.g. `v1/api`; health and metrics stay unprefixed. */
  globalPrefix?: string;
  /** Paths outside the prefix besides `/health/*` and `/metrics`. */
  prefixExclusions?: string[];
  /**
   * Replace Fastify's JSON parser with one that takes an empty body as no body (default true).
   * The gateway keeps Fastify's: it streams bodies through unparsed.
   */
  lenientJsonParser?: boolean;
  /**
   * Refuse a JSON body holding U+0000 with 400 (default true; nul-guard.ts). Analytics turns it
   * off: Langfuse ingestion keeps the event and drops the NULs itself (docs/analytics.md).
   */
  rejectNulInBody?: boolean;
  /**
   * Body of the errors answered outside Nest's exception filters (router and HTTP parser
   * refusals, the 503 while shutting down); default JSON:API. A service with its own error
   * shape passes it here too (analytics).
   */
  errorBody?: ErrorBodyFormat;
  /**
   * Nest's preview mode: the module graph is resolved, no provider is instantiated (nothing
   * connects). For reading the routes offline, e.g. the OpenAPI document (`npm run openapi`).
   */
  preview?: boolean;
}

/**
 * A Fastify adapter with our request id rule (keep a well-formed incoming `X-Request-Id`, else a
 * UUID) and the JSON:API error body for the errors Fastify and Node answer themselves (bad URL,
 * parameter too long, malformed HTTP, headers too large; framework-errors.ts). Fastify's own
 * 503 while closing is off: {@link configureHttpApp} installs ours.
 */
export function createFastifyAdapter(
  options: Pick<
    HttpAppOptions,
    'bodyLimit' | 'trustProxy' | 'errorBody' | 'maxParamLength' | 'strictTransportSecurity'
  >,
) {
  const format = options.errorBody ?? jsonApiErrorBody;
  const headers = securityHeaders(options.strictTransportSecurity);
  return new FastifyAdapter({
    bodyLimit: options.bodyLimit,
    ...(options.maxParamLength !== undefined && {
      routerOptions: { maxParamLength: options.maxParamLength },
    }),
    trustProxy: options.trustProxy,
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(format, headers),
    clientErrorHandler: clientErrorHandler(format, headers),
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
}

/**
 * Creates a NestJS application on Fastify with the platform's HTTP behaviour: JSON:API errors
 * for everything (Nest routes Fastify's own parser errors to the global filter too; the router's
 * and Node's own refusals and the 503 while shutting down use the same body), the global
 * validation pipe, `X-Request-Id` echoed on every answer, an empty JSON body accepted as no
 * body, and the 503 while closing. The signals themselves are handled by the process's main
 * (`installGracefulShutdown` in @wp/platform), which closes the app and exits 0.
 */
export async function createHttpApp(
  module: unknown,
  options: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    module as never,
    createFastifyAdapter(options),
    { bufferLogs: true, abortOnError: false, bodyParser: false, preview: options.preview },
  );
  configureHttpApp(app, options);
  return app;
}

/**
 * The configuration part of {@link createHttpApp}. The app must be created with
 * `bodyParser: false`: the JSON parser installed here replaces Nest's.
 */
export function configureHttpApp(app: INestApplication, options: HttpAppOptions): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  installFastifyHooks(fastify, {
    lenientJsonParser: options.lenientJsonParser ?? true,
    rejectNulInBody: options.rejectNulInBody ?? true,
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    headers: securityHeaders(options.strictTransportSecurity),
  });
  if (options.globalPrefix) {
    app.setGlobalPrefix(options.globalPrefix, {
      exclude: [
        { path: 'health/live', method: RequestMethod.GET },
        { path: 'health/ready', method: RequestMethod.GET },
        { path: 'metrics', method: RequestMethod.GET },
        ...(options.prefixExclusions ?? []).map((path) => ({ path, method: RequestMethod.ALL })),
      ],
    });
  }
  app.useGlobalFilters(new JsonApiErrorFilter());
  app.useGlobalPipes(new RequestValidationPipe());
  markClosingOnShutdown(app, installClosingGuard(fastify, options.errorBody));
}

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** `markClosing` of every live app of this process, called by one shared signal listener. */
const closingMarkers = new Set<() => void>();
const markAllClosing = () => {
  for (const markClosing of closingMarkers) markClosing();
};

/**
 * Shutting down begins with Nest's destroy hooks (connections to PostgreSQL, Redis and NATS
 * close there), well before Fastify stops listening: `app.close()` and the shutdown signals
 * mark the process closing first, so requests arriving meanwhile get the 503. One signal
 * listener serves every app of the process; it runs before Nest's (prepended) and is removed
 * when the last app's Fastify closes. The process's main ends the process once `app.close()`
 * resolves (`installGracefulShutdown` in @wp/platform).
 */
function markClosingOnShutdown(app: INestApplication, markClosing: () => void): void {
  const close = app.close.bind(app);
  app.close = async () => {
    markClosing();
    await close();
  };
  if (closingMarkers.size === 0) {
    for (const signal of SHUTDOWN_SIGNALS) process.prependListener(signal, markAllClosing);
  }
  closingMarkers.add(markClosing);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onClose', (_instance, done) => {
    closingMarkers.delete(markClosing);
    if (closingMarkers.size === 0) {
      for (const signal of SHUTDOWN_SIGNALS) process.removeListener(signal, markAllClosing);
    }
    done();
  });
}

function installFastifyHooks(
  fastify: FastifyInstance,
  {
    lenientJsonParser,
    rejectNulInBody,
    maxJsonDepth,
    headers,
  }: {
    lenientJsonParser: boolean;
    rejectNulInBody: boolean;
    maxJsonDepth: number;
    headers: Record<string, string>;
  },
): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    // Every answer (docs/operations.md § Response headers): JSON is never sniffed as HTML.
    void reply.headers(headers);
    // Routes marked @NoStore() (no-store.ts), before guards, pipes or the handler can refuse.
    if (routeIsNoStore(request)) noStore(reply);
    // The HTTP server span, when tracing is on (libs/tracing); a no-op otherwise.
    trace.getActiveSpan()?.setAttribute('http.request.id', request.id);
    done();
  });
  if (!lenientJsonParser) return;
  const defaultJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // Before anything walks the body: the parser, the NUL scan, class-transformer.
    if (jsonDepthExceeds(text, maxJsonDepth))
      return done(jsonTooDeepError(maxJsonDepth), undefined);
    return defaultJson(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      const suspect = rejectNulInBody && (text.includes('\\u0000') || text.includes('\u0000'));
      const pointer = suspect ? findNul(value) : null;
      if (pointer !== null)
        return done(ValidationFailedError.at({ pointer }, NUL_DETAIL), undefined);
      const surrogate =
        rejectNulInBody && mayHoldLoneSurrogate(text) ? findLoneSurrogate(value) : null;
      if (surrogate !== null) {
        return done(ValidationFailedError.at({ pointer: surrogate }, UNPAIRED_SURROGATE_DETAIL));
      }
      return done(null, value);
    });
  });
  // Query and path parameters with U+0000 (`%00`): 400 before any handler (nul-guard.ts).
  fastify.addHook('preValidation', (request, _reply, done) => {
    const parameter = findNulParameter(
      request.query as Record<string, unknown>,
      request.params as Record<string, unknown>,
    );
    if (parameter === null) return done();
    return done(ValidationFailedError.at({ parameter }, NUL_DETAIL));
  });
}

import { hostname } from 'node:os';
import { type DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { redactUrl } from '@wp/http';
import { LoggerModule } from 'nestjs-pino';
import pino, { type LoggerOptions } from 'pino';
import {
  chooseLogFormat,
  isProbe,
  prettyAvailable,
  prettyTransport,
  QUIET_CONTEXTS,
  type LogFormat,
} from './log-format.js';

/**
 * Paths pino removes from every log line (docs/architecture.md § Operations): credentials in
 * headers, and any password, code, token or secret field of a logged object.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["api-key"]',
  'req.headers["admin-access"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.new_password',
  '*.current_password',
  '*.code',
  '*.verification_code',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.refresh_token',
  '*.reset_token',
  '*.secret',
  '*.secretKey',
  '*.client_secret',
  // two-factor (docs/auth.md § Two-factor authentication)
  '*.recovery_code',
  '*.recoveryCodes',
  '*.challenge_token',
  '*.otpauthUri',
  '*.qrCodeSvg',
  '*.qrCodeDataUrl',
];

export interface LoggingOptions {
  service: string;
  level: string;
  /** Log one line per HTTP request at `info` (default true; off when `level` is above info). */
  logRequests?: boolean;
  /** `LOG_FORMAT` (default `auto`): see {@link chooseLogFormat}. */
  format?: string;
  /** `NODE_ENV`: production always logs JSON. */
  nodeEnv?: string;
}

/** The format this process logs in, from its options and its environment. */
export function resolveLogFormat(options: Pick<LoggingOptions, 'format' | 'nodeEnv'>): LogFormat {
  return chooseLogFormat({
    requested: options.format,
    isTTY: process.stdout.isTTY === true,
    nodeEnv: options.nodeEnv,
    prettyAvailable: prettyAvailable(),
  });
}

/**
 * What pretty logs change (docs/architecture.md § Logs): pino-pretty as the destination, a
 * request line that reads `GET /path 200 3ms`, no lines for health probes and metric scrapes,
 * and none of Nest's per-module and per-route start-up lines.
 */
function prettyOptions() {
  return {
    transport: prettyTransport(),
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        const first = args[0] as { context?: unknown } | null;
        if (first && typeof first === 'object' && QUIET_CONTEXTS.has(String(first.context))) {
          return;
        }
        method.apply(this, args);
      },
    } as LoggerOptions['hooks'],
    // Checked when the request arrives (Fastify's middleware runner may have cut `url` to the
    // part below the mount point, hence `originalUrl`) and again when the line is written.
    autoLoggingIgnore: (req: { url?: string; originalUrl?: string }) =>
      isProbe(req.originalUrl ?? req.url),
    customLogLevel: (
      req: { url?: string; originalUrl?: string },
      res: { statusCode: number },
      error?: Error,
    ) => {
      if (isProbe(req.originalUrl ?? req.url)) return 'silent' as const;
      if (error || res.statusCode >= 500) return 'error' as const;
      return res.statusCode >= 400 ? ('warn' as const) : ('info' as const);
    },
    customSuccessMessage: (
      req: { method?: string; url?: string },
      res: { statusCode: number },
      responseTime: number,
    ) =>
      `${req.method} ${redactUrl(req.url ?? '')} ${res.statusCode} ${Math.round(responseTime)}ms`,
    customErrorMessage: (
      req: { method?: string; url?: string },
      res: { statusCode: number },
      error: Error,
    ) => `${req.method} ${redactUrl(req.url ?? '')} ${res.statusCode} ${error.message}`,
  };
}

/**
 * Logs through nestjs-pino, one line per request with its request id and redactions; every line
 * carries `service`. JSON lines, or pino-pretty's readable ones in a terminal outside production
 * ({@link resolveLogFormat}).
 */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingOptions): DynamicModule {
    const requestLines = (options.logRequests ?? true) && logsInfo(options.level);
    const pretty = resolveLogFormat(options) === 'pretty' ? prettyOptions() : undefined;
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          // path-to-regexp 8 syntax; the default '*' draws a deprecation warning per route.
          // Above `info` no request line can be written, so no per-request middleware is
          // registered at all: it built a child logger (bindings serialized and redacted) and an
          // AsyncLocalStorage scope per request, ~15% of a proxied request's CPU in the gateway.
          // Lines written during a request then come from the root logger; the error filter puts
          // the request id into its own lines (docs/architecture.md § Logs).
          forRoutes: requestLines ? [{ path: '{*path}', method: RequestMethod.ALL }] : [],
          pinoHttp: {
            name: options.service,
            level: options.level,
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            // The request line is written at `info`: below that level, skip its per-request
            // bookkeeping (listeners, timing, line objects) that could never be written.
            autoLogging:
              requestLines && pretty ? { ignore: pretty.autoLoggingIgnore } : requestLines,
            ...(pretty && {
              transport: pretty.transport,
              hooks: pretty.hooks,
              customLogLevel: pretty.customLogLevel,
              customSuccessMessage: pretty.customSuccessMessage,
              customErrorMessage: pretty.customErrorMessage,
            }),
            quietReqLogger: true,
            // `service` on every line, bound once: a per-request `customProps` would build one
            // more child logger (bindings serialized and redacted) for every request.
            base: { pid: process.pid, hostname: hostname(), service: options.service },
            serializers: {
              // Credential-like query parameters (`?Api-Key=…`, `?access_token=…`) are redacted
              // (docs/operations.md § Logs and traces).
              req: (req: { id: unknown; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: redactUrl(req.url),
              }),
              // The status alone: response headers are neither secret-free nor useful per line.
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}

/** Whether a logger at `level` writes `info` lines (unknown levels: assume it does). */
export function logsInfo(level: string): boolean {
  if (level === 'silent') return false;
  return (pino.levels.values[level] ?? pino.levels.values.info) <= pino.levels.values.info;
}

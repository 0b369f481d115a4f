import { hostname } from 'node:os';
import { type DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';

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
}

/**
 * JSON logs through nestjs-pino, one line per request with its request id and redactions;
 * every line carries `service`.
 */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingOptions): DynamicModule {
    const requestLines = (options.logRequests ?? true) && logsInfo(options.level);
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
            autoLogging: requestLines,
            quietReqLogger: true,
            // `service` on every line, bound once: a per-request `customProps` would build one
            // more child logger (bindings serialized and redacted) for every request.
            base: { pid: process.pid, hostname: hostname(), service: options.service },
            serializers: {
              req: (req: { id: unknown; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: req.url,
              }),
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

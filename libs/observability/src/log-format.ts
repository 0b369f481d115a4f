import type { TransportSingleOptions } from 'pino';

/** How log lines are written: JSON lines (the default), or pino-pretty's readable lines. */
export type LogFormat = 'json' | 'pretty';

/** `LOG_FORMAT`: `auto` (pretty in a terminal outside production, else JSON), `json`, `pretty`. */
export type RequestedLogFormat = 'auto' | LogFormat;

export interface LogFormatInputs {
  /** `LOG_FORMAT`; unset or unknown counts as `auto`. */
  requested?: string;
  /** Whether the output is a terminal (`process.stdout.isTTY`). */
  isTTY: boolean;
  /** `NODE_ENV`. */
  nodeEnv?: string;
  /** Whether pino-pretty can be loaded (it is a development dependency). */
  prettyAvailable?: boolean;
}

/**
 * The log format of a process (docs/architecture.md § Logs): JSON in production whatever is
 * asked, so collectors always get JSON; otherwise what `LOG_FORMAT` asks, and with `auto` pretty
 * lines only when a person watches a terminal (`npm start`). Falls back to JSON when pino-pretty
 * is not installed (a production image without development dependencies).
 */
export function chooseLogFormat(inputs: LogFormatInputs): LogFormat {
  if (inputs.nodeEnv === 'production' || inputs.prettyAvailable === false) return 'json';
  if (inputs.requested === 'json' || inputs.requested === 'pretty') return inputs.requested;
  return inputs.isTTY ? 'pretty' : 'json';
}

/** Whether pino-pretty resolves from here. */
export function prettyAvailable(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/**
 * Nest's start-up chatter (one line per module, controller and route: about 250 lines for the
 * five apps) that pretty logs leave out; JSON logs keep everything.
 */
export const QUIET_CONTEXTS: ReadonlySet<string> = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
]);

/** Routes polled by health checks and scrapers: no request line in pretty logs. */
export function isProbe(url: string | undefined): boolean {
  return url !== undefined && /^\/(health\/|metrics\b)/.test(url);
}

/**
 * pino-pretty, one line per log call: time, level, the message (a request line reads
 * `GET /v1/api/users 201 3ms`), and the Nest context; pid, hostname, name and service (the
 * runner prefixes each line with the app's name), request objects and ids are left out.
 */
export function prettyTransport(): TransportSingleOptions {
  return {
    target: 'pino-pretty',
    options: {
      colorize: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,name,service,req,res,reqId,responseTime,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
    },
  };
}

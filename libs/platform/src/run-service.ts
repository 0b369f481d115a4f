import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadDotenv, type PlatformConfig } from '@wp/config';
import { redactQuery, redactUrl } from '@wp/http';
import { startTracing, stopTracing } from '@wp/tracing';

type ShutdownConfig = Pick<PlatformConfig, 'SHUTDOWN_TIMEOUT_SECONDS'>;

export interface RunServiceOptions<C extends ShutdownConfig> {
  service: string;
  /** Parses and validates the environment; throws ConfigError. */
  loadConfig: () => C;
  createApp: (config: C) => Promise<NestFastifyApplication>;
  listen: (config: C) => { port: number; host: string };
}

/**
 * The `main()` of every service: `.env` → validated config (a bad variable stops the process
 * with one line naming it, exit code 1) → app → listen. SIGTERM/SIGINT shut it down gracefully
 * ({@link installGracefulShutdown}). Started by `npm start` (an IPC channel to the runner), it
 * also closes and exits when that channel closes: a runner killed with SIGKILL leaves no app
 * behind holding its port.
 */
export async function runService<C extends ShutdownConfig>(
  options: RunServiceOptions<C>,
): Promise<void> {
  loadDotenv();
  // Before the app exists: instrumentations patch `http` and `pg` as the app first uses them.
  startTracing(options.service, { url: redactUrl, query: redactQuery });
  let config: C;
  try {
    config = options.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${options.service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await options.createApp(config);
  installGracefulShutdown(app, {
    service: options.service,
    timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  });
  if (process.send) {
    process.once('disconnect', () => {
      void app.close().finally(() => process.exit(0));
    });
  }
  const { port, host } = options.listen(config);
  await app.listen({ port, host });
}

/** Runs `main` and exits with a one-line message if it fails at boot. */
export function startMain(service: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${service}: failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

export interface GracefulShutdownOptions {
  service: string;
  /** Bound of the whole shutdown, ms (`SHUTDOWN_TIMEOUT_SECONDS`). */
  timeoutMs: number;
  /** Ends the process (tests replace it); default `process.exit`. */
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
}

/**
 * On SIGTERM or SIGINT (docs/operations.md § Shutdown): `app.close()` marks the process closing
 * (every new request, readiness included, gets 503 + `Retry-After` at once), Fastify stops
 * listening and waits for the requests in flight, then the destroy hooks run (the outbox relay
 * publishes what is pending once, NATS drains, pools close) and the process exits 0. If that
 * takes longer than `timeoutMs` it exits 1 anyway. A second signal meanwhile is ignored.
 * Returns what removes the listeners.
 */
export function installGracefulShutdown(
  app: Pick<NestFastifyApplication, 'close'>,
  options: GracefulShutdownOptions,
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    process.stderr.write(`${options.service}: ${signal}: draining, then exiting\n`);
    const timer = setTimeout(() => {
      process.stderr.write(
        `${options.service}: shutdown took over ${options.timeoutMs} ms; exiting anyway\n`,
      );
      exit(1);
    }, options.timeoutMs);
    timer.unref();
    app
      .close()
      .then(() => stopTracing())
      .then(
        () => {
          clearTimeout(timer);
          exit(0);
        },
        (error: unknown) => {
          clearTimeout(timer);
          process.stderr.write(
            `${options.service}: shutdown failed: ${(error as Error).message}\n`,
          );
          exit(1);
        },
      );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.removeListener(signal, onSignal);
  };
}

import { flushCompileCache } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadDotenv, type PlatformConfig } from '@wp/config';
import { redactQuery, redactUrl } from '@wp/http';
import { periodicJobs, startupPhases } from '@wp/observability';
import { startTracing, stopTracing } from '@wp/tracing';

type ShutdownConfig = Pick<PlatformConfig, 'SHUTDOWN_TIMEOUT_SECONDS' | 'SHUTDOWN_DRAIN_SECONDS'>;

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
  // docs/operations.md § Start-up time: Node's own start, then loading the app's modules.
  startupPhases.phaseUntil('node', performance.nodeTiming.bootstrapComplete);
  startupPhases.phase('modules');
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
  startupPhases.phase('config');
  const app = await options.createApp(config);
  startupPhases.phase('providers');
  installGracefulShutdown(app, {
    service: options.service,
    timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    drainMs: config.SHUTDOWN_DRAIN_SECONDS * 1000,
  });
  if (process.send) {
    process.once('disconnect', () => {
      void app.close().finally(() => process.exit(0));
    });
  }
  const { port, host } = options.listen(config);
  await app.listen({ port, host });
  startupPhases.phase('init+listen');
  new Logger('Startup').log(`${options.service} ${startupPhases.summary()}`);
  // With NODE_COMPILE_CACHE (npm start sets it) the compiled modules are written now, not at
  // exit: an app killed with SIGKILL never exits, and its restart should find them.
  flushCompileCache();
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
  /** Bound of the whole shutdown, drain window included, ms (`SHUTDOWN_TIMEOUT_SECONDS`). */
  timeoutMs: number;
  /**
   * How long the process keeps listening after the signal, answering every new request 503, ms
   * (`SHUTDOWN_DRAIN_SECONDS`; default 0).
   */
  drainMs?: number;
  /** Ends the process (tests replace it); default `process.exit`. */
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
}

/**
 * On SIGTERM or SIGINT (docs/operations.md § Shutdown): the process is marked closing at once
 * (libs/http: every new request, readiness included, gets 503 + `Retry-After` +
 * `Connection: close`, requests in flight finish), and keeps listening for `drainMs` so that
 * clients and load balancers still connecting get that retryable answer instead of a refused
 * connection; then `app.close()` stops listening and waits for the requests in flight, the
 * destroy hooks run (the outbox relay publishes what is pending once, NATS drains, pools close)
 * and the process exits 0. If all of it takes longer than `timeoutMs` it exits 1 anyway. A
 * second signal meanwhile is ignored. Returns what removes the listeners.
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
    const drain = options.drainMs ? ` for ${options.drainMs} ms (503 to new requests)` : '';
    process.stderr.write(`${options.service}: ${signal}: draining${drain}, then exiting\n`);
    const timer = setTimeout(() => {
      process.stderr.write(
        `${options.service}: shutdown took over ${options.timeoutMs} ms; exiting anyway\n`,
      );
      exit(1);
    }, options.timeoutMs);
    timer.unref();
    new Promise((resolve) => setTimeout(resolve, options.drainMs ?? 0))
      .then(() => app.close())
      .then(() => periodicJobs.stopAll())
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

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadDotenv } from '@wp/config';

export interface RunServiceOptions<C> {
  service: string;
  /** Parses and validates the environment; throws ConfigError. */
  loadConfig: () => C;
  createApp: (config: C) => Promise<NestFastifyApplication>;
  listen: (config: C) => { port: number; host: string };
}

/**
 * The `main()` of every service: `.env` → validated config (a bad variable stops the process
 * with one line naming it, exit code 1) → app → listen. SIGTERM/SIGINT close it gracefully.
 * Started by `npm start` (an IPC channel to the runner), it also closes and exits when that
 * channel closes: a runner killed with SIGKILL leaves no app behind holding its port.
 */
export async function runService<C>(options: RunServiceOptions<C>): Promise<void> {
  loadDotenv();
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

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface EmbeddedServer {
  port: number;
  child: { kill(signal: NodeJS.Signals): boolean; once(event: 'exit', f: () => void): void } | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  url(database: string): string;
}

// npm start's own PostgreSQL manager (scripts/embedded-postgres.js), CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EmbeddedPostgres } = require('../../scripts/embedded-postgres.js') as {
  EmbeddedPostgres: new (options: { dataDir: string }) => EmbeddedServer;
};

/**
 * A private PostgreSQL server (the binaries embedded mode ships) in a temporary directory on a
 * free port, for tests that crash and restart the platform database without disturbing this
 * machine's PostgreSQL.
 */
export class PrivatePostgres {
  private readonly dir = mkdtempSync(join(tmpdir(), 'wp-pg-'));
  private readonly server: EmbeddedServer;

  constructor() {
    chmodSync(this.dir, 0o755); // as root the server runs as the postgres OS user
    this.server = new EmbeddedPostgres({ dataDir: this.dir });
  }

  url(database: string): string {
    return this.server.url(database);
  }

  /** `postgres://postgres:…@127.0.0.1:<port>`, for `PlatformStack.start`'s `databaseServers`. */
  get serverUrl(): string {
    return this.server.url('').replace(/\/$/, '');
  }

  start(): Promise<void> {
    return this.server.start();
  }

  /** SIGKILL of the postmaster: a crash, recovered from the WAL at the next start. */
  async crash(): Promise<void> {
    const child = this.server.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Fast shutdown (SIGINT): sessions get 57P01, open transactions roll back; `start` again. */
  stop(): Promise<void> {
    return this.server.stop();
  }

  async close(): Promise<void> {
    await this.server.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

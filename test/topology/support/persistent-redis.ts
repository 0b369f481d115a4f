import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@wp/testing';

const BINARY = [
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
  '/usr/sbin/redis-server',
].find((p) => existsSync(p));

/** Production's Redis settings, the one source (deploy/README.md § Production). */
export const PRODUCTION_CONF = join(
  __dirname,
  '..',
  '..',
  '..',
  'deploy',
  'redis',
  'production.conf',
);

/** The directives of {@link PRODUCTION_CONF}: `{ appendonly: 'yes', … }`. */
export function productionRedisSettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(PRODUCTION_CONF, 'utf8').split('\n')) {
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    const [name, ...value] = text.split(/\s+/);
    settings[name] = value.join(' ');
  }
  return settings;
}

/**
 * A private redis-server started from deploy/redis/production.conf (append-only file, fsync
 * every second), on its own port with its data directory in a temporary directory that
 * outlives its restarts — unlike the test suite's PrivateRedis, which keeps nothing.
 */
export class PersistentRedis {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'wp-redis-aof-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PersistentRedis> {
    if (!BINARY) throw new Error('redis-server binary not found');
    const redis = new PersistentRedis(await freePort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on the same port and directory; resolves once it listens. */
  async resume(): Promise<void> {
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) return;
    this.process = spawn(
      BINARY!,
      [PRODUCTION_CONF, '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    await waitForPort(this.port, 10_000, 'redis-server');
  }

  /**
   * Stops the server with `signal`: SIGTERM (a shutdown: Redis writes and fsyncs its AOF, then
   * exits) or SIGKILL (a crash of the process: what was written to the file stays).
   */
  async stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async close(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

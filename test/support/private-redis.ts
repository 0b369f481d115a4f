import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitForPort } from '@wp/testing';

const BINARY = [
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
  '/usr/sbin/redis-server',
].find((p) => existsSync(p));

/**
 * A private redis-server on its own port, without persistence (no RDB, no AOF), for tests that
 * stop Redis, restart it empty, flush it or freeze it without disturbing the shared one — the
 * twin of {@link PrivateNats}. Started with `{ config }` (a redis.conf, e.g. production's) it
 * takes that file's settings instead, and its data directory outlives its restarts.
 */
export class PrivateRedis {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'wp-redis-'));

  private constructor(
    readonly port: number,
    private readonly config: string | undefined,
  ) {}

  /** @param options.config a redis.conf whose settings replace "no persistence" */
  static async start(options: { config?: string } = {}): Promise<PrivateRedis> {
    if (!BINARY) throw new Error('redis-server binary not found');
    const redis = new PrivateRedis(await freePort(), options.config);
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again): after {@link kill} it comes back empty. Nothing when it runs. */
  async resume(): Promise<void> {
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) return;
    const settings = this.config ? [this.config] : ['--save', '', '--appendonly', 'no'];
    this.process = spawn(
      BINARY!,
      [...settings, '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    await waitForPort(this.port, 10_000, 'redis-server');
  }

  /**
   * Stops the server with `signal`: SIGKILL (at once; connections are cut, and without a config
   * file everything in it is lost) or SIGTERM (a shutdown: with an append-only file, Redis writes
   * and fsyncs it first).
   */
  async kill(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /**
   * Freezes the server (SIGSTOP): connections stay open and nothing answers, as a hung server
   * or a silent network; {@link thaw} resumes it.
   */
  freeze(): void {
    this.process?.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.kill('SIGCONT');
  }

  /** `FLUSHALL` from a connection of its own: every key of every prefix is gone. */
  async flushAll(): Promise<void> {
    const client = new Redis(this.url, { lazyConnect: true });
    try {
      await client.connect();
      await client.flushall();
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    this.thaw();
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

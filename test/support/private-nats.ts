import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@wp/testing';

const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(
  (p) => existsSync(p),
);

/**
 * A private nats-server with JetStream on its own port and store directory, for tests that
 * stop and restart NATS without disturbing anyone else's.
 */
export class PrivateNats {
  private process?: ChildProcess;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'wp-nats-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateNats> {
    if (!BINARY) throw new Error('nats-server binary not found');
    const nats = new PrivateNats(await freePort());
    await nats.resume();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again); nothing when it runs. */
  async resume(): Promise<void> {
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) return;
    this.process = spawn(
      BINARY!,
      ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir],
      {
        stdio: 'ignore',
      },
    );
    await waitForPort(this.port, 10_000, 'nats-server');
  }

  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

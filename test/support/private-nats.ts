import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    await waitForPort(this.port, 10_000);
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
}

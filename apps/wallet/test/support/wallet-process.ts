import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, waitFor } from '@wp/testing';

const ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * The wallet service as a separate process (`apps/wallet/src/main.ts` through
 * `scripts/ts-register.js`), so a test can kill it with SIGKILL mid-request, as a crash would.
 */
export class WalletProcess {
  private child?: ChildProcess;
  private stderr = '';

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string>): Promise<WalletProcess> {
    const process = new WalletProcess(await freePort(), env);
    await process.spawn();
    return process;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process (again) and waits until it answers `/health/ready`. */
  async spawn(): Promise<void> {
    this.stderr = '';
    const child = spawn(
      process.execPath,
      [
        '-r',
        join(ROOT, 'scripts', 'ts-register.js'),
        join(ROOT, 'apps', 'wallet', 'src', 'main.ts'),
      ],
      {
        cwd: ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          ...this.env,
          WALLET_PORT: String(this.port),
          WALLET_HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child = child;
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`wallet exited: ${this.stderr}`);
        const res = await fetch(`${this.url}/health/ready`).catch(() => undefined);
        return res?.status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the wallet process to be ready' },
    );
  }

  /** SIGKILL: no graceful shutdown, in-flight requests are cut. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

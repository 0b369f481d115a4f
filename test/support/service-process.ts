import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, waitFor } from '@wp/testing';

const ROOT = join(__dirname, '..', '..');

export type ProcessService = 'auth' | 'org' | 'wallet' | 'analytics' | 'gateway';

/**
 * One app as its own process (`apps/<service>/src/main.ts` through `scripts/ts-register.js`),
 * for what only a real process shows: signals, exit codes, several replicas starting at once.
 */
export class ServiceProcess {
  private child?: ChildProcess;
  stderr = '';
  /** What the app wrote to stdout (its log lines), when started with `captureStdout`. */
  stdout = '';
  /** Exit code once exited (null: killed by a signal). */
  exit?: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly service: ProcessService,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly captureStdout: boolean,
  ) {}

  /**
   * Spawns the app; `waitReady` (default true) waits for 200 on `/health/ready`; `port` (default
   * a free one) e.g. the port of the process it replaces; `captureStdout` keeps its log lines in
   * {@link stdout}.
   */
  static async start(
    service: ProcessService,
    env: Record<string, string>,
    options: { waitReady?: boolean; port?: number; captureStdout?: boolean } = {},
  ): Promise<ServiceProcess> {
    const app = new ServiceProcess(
      service,
      options.port ?? (await freePort()),
      env,
      options.captureStdout ?? false,
    );
    app.spawn();
    if (options.waitReady ?? true) await app.waitReady();
    return app;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private spawn(): void {
    const prefix = this.service.toUpperCase();
    const child = spawn(
      process.execPath,
      [
        '-r',
        join(ROOT, 'scripts', 'ts-register.js'),
        join(ROOT, 'apps', this.service, 'src', 'main.ts'),
      ],
      {
        cwd: ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          ...this.env,
          [`${prefix}_PORT`]: String(this.port),
          [`${prefix}_HOST`]: '127.0.0.1',
        },
        stdio: [
          'ignore',
          this.captureStdout ? 'pipe' : process.env['DEBUG_CHILD'] ? 'inherit' : 'ignore',
          'pipe',
        ],
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.exit = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    this.child = child;
  }

  async waitReady(timeoutMs = 90_000): Promise<void> {
    await waitFor(
      async () => {
        if (this.child?.exitCode !== null) {
          throw new Error(`${this.service} exited: ${this.stderr}`);
        }
        const res = await fetch(`${this.url}/health/ready`).catch(() => undefined);
        return res?.status === 200;
      },
      { timeoutMs, intervalMs: 100, what: `${this.service} to be ready` },
    );
  }

  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** SIGKILL if still running (test cleanup). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await this.exit;
  }
}

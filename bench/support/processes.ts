import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Children still running; killed if the benchmark itself dies. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A service of this repository as a child process: dist/main.js when built, else the sources. */
export class ServiceProcess {
  private stderr = '';

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly metricsPort: number,
    private readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
  }

  static async start(
    app: 'wallet' | 'gateway' | 'org',
    env: Record<string, string>,
    portVariable: string,
  ): Promise<ServiceProcess> {
    const port = await freePort();
    const metricsPort = await freePort();
    const dist = join(ROOT, 'apps', app, 'dist', 'main.js');
    const args = existsSync(dist)
      ? [dist]
      : ['-r', join(ROOT, 'scripts', 'ts-register.js'), join(ROOT, 'apps', app, 'src', 'main.ts')];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        ...env,
        [portVariable]: String(port),
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    const service = new ServiceProcess(app, port, metricsPort, child);
    await service.ready();
    return service;
  }

  /** Sends a signal to the process (e.g. SIGWINCH to toggle the profiler of `cpu-profile.js`). */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** The process id (CPU accounting from /proc). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Its metrics listener (`METRICS_PORT`; docs/operations.md § Metrics). */
  get metricsUrl(): string {
    return `http://127.0.0.1:${this.metricsPort}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }

  private async ready(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited: ${this.stderr}`);
      const res = await fetch(`${this.url}/health/live`).catch(() => undefined);
      if (res?.status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} did not start: ${this.stderr}`);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

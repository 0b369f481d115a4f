import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './manifests.js';

/** A port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Rewrites a compose environment for this machine: host names of compose services become
 * 127.0.0.1 (with `ports` giving each app's port here), and `postgres://…/<db>` names the
 * database `databases[<db>]`. Everything else is kept as compose gives it.
 */
export function rewriteForLocalServers(
  env: Record<string, string>,
  hosts: Record<string, number | null>,
  databases: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? URL.parse(value) : null;
    if (!url || !(url.hostname in hosts)) {
      out[key] = value;
      continue;
    }
    const port = hosts[url.hostname];
    url.hostname = '127.0.0.1';
    if (port !== null) url.port = String(port);
    if (/^postgres(ql)?:$/.test(url.protocol)) {
      const name = url.pathname.slice(1);
      if (!(name in databases)) throw new Error(`${key}: unexpected database ${name}`);
      url.pathname = `/${databases[name]}`;
    }
    out[key] = url.toString();
  }
  return out;
}

/** One app started as `node apps/<app>/dist/main.js` with exactly `env` (plus nothing else). */
export class AppProcess {
  output = '';
  exitCode: number | null = null;
  private readonly child: ChildProcess;
  readonly exited: Promise<void>;

  constructor(
    readonly app: string,
    env: Record<string, string>,
    script = 'main.js',
  ) {
    // Its own empty working directory: no `.env` of the repository is read.
    const cwd = mkdtempSync(join(tmpdir(), `wp-deploy-${app}-`));
    this.child = spawn(process.execPath, [join(REPO, 'apps', app, 'dist', script)], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.exitCode = code;
        resolve();
      }),
    );
  }

  get running(): boolean {
    return this.exitCode === null && this.child.signalCode === null;
  }

  /** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Polls `url` until it answers 200 (true) or the app exits or time runs out (false). */
export async function becomesReady(
  url: string,
  app: AppProcess,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && app.running) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase } from '@wp/persistence';
import { TestEnvironment } from '@wp/testing';
import { freePort, ROOT } from './processes.js';

export type PlatformMode = 'services' | 'embedded';
export const PLATFORM_SERVICES = ['auth', 'org', 'wallet', 'analytics'] as const;
export type PlatformApp = (typeof PLATFORM_SERVICES)[number] | 'gateway';

export interface PlatformOptions {
  /** Extra variables for the runner and every app (e.g. `NODE_OPTIONS`). */
  env?: Record<string, string>;
  /** Port of the gateway; the four services take the next four. Default: free ports. */
  portBase?: number;
}

/**
 * The whole platform started with `npm start`'s own runner (scripts/start.js, the five apps as
 * its children, logs at `warn`), for benches that measure it end to end (modes, soak). Services
 * mode runs on this machine's PostgreSQL, Redis and NATS with databases, key prefix and event
 * namespace of its own (removed by `stop`); embedded mode with PostgreSQL from npm in a
 * temporary `DATA_DIR`.
 */
export class Platform {
  /** The runner's latest output (bounded: a long bench prints mail and warnings for hours). */
  private output = '';
  private partial = '';
  private up = false;
  private readonly started: Partial<Record<PlatformApp, number>> = {};
  private constructor(
    readonly mode: PlatformMode,
    readonly env: TestEnvironment,
    readonly dir: string,
    readonly ports: Record<PlatformApp, number>,
    private readonly child: ChildProcess,
  ) {}

  get gateway(): string {
    return this.url('gateway');
  }

  /** `http://127.0.0.1:<port>` of one app (each service also answers on its own port). */
  url(app: PlatformApp): string {
    return `http://127.0.0.1:${this.ports[app]}`;
  }

  static async start(mode: PlatformMode, options: PlatformOptions = {}): Promise<Platform> {
    const env = new TestEnvironment({}, mode);
    const dir = mkdtempSync(join(tmpdir(), `wp-bench-${mode}-`));
    chmodSync(dir, 0o755);
    const ports = await platformPorts(options.portBase);
    const vars: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: dir,
      PLATFORM_MODE: mode,
      LOG_LEVEL: 'warn',
      AUTH_EMAIL_ACTIVATION_REQUIRED: 'false',
      GATEWAY_RATE_LIMIT: '0',
      JWT_PUBLIC_KEY: env.keys.jwtPublicKey,
      JWT_PRIVATE_KEY: env.keys.jwtPrivateKey,
      BOOTSTRAP_API_KEY: env.keys.apiKey,
      SECRETS_ENCRYPTION_KEY: env.keys.encryptionKey,
      ADMIN_ACCESS_TOKENS: env.keys.adminAccessToken,
      AUTH_CODE_SECRET: env.keys.codeSecret,
      WALLET_TRANSFER_CODE_SECRET: env.keys.transferCodeSecret,
      ...options.env,
    };
    for (const app of Object.keys(ports) as PlatformApp[]) {
      vars[`${app.toUpperCase()}_PORT`] = String(ports[app]);
    }
    if (mode === 'services') {
      for (const key of ['REDIS_URL', 'REDIS_KEY_PREFIX', 'NATS_URL', 'EVENTS_NAMESPACE']) {
        vars[key] = env.env[key];
      }
      for (const s of PLATFORM_SERVICES) {
        vars[`${s.toUpperCase()}_DATABASE_URL`] = env.databaseUrl(s);
      }
    }
    process.stderr.write(`starting the platform in ${mode} mode…\n`);
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.js')], {
      cwd: dir,
      env: vars,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const platform = new Platform(mode, env, dir, ports, child);
    child.stdout?.on('data', (c: Buffer) => platform.take(c.toString()));
    child.stderr?.on('data', (c: Buffer) => platform.take(c.toString()));
    const deadline = Date.now() + 300_000;
    while (!platform.up) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`npm start (${mode}) did not come up:\n${platform.output.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return platform;
  }

  /**
   * Process id of each app, from the runner's `<app> started (pid N)` lines (the latest, so a
   * restarted app shows its new process).
   */
  pids(): Partial<Record<PlatformApp, number>> {
    return { ...this.started };
  }

  /** The runner's latest output (its own lines and the apps' warnings; the last 64 KB). */
  get log(): string {
    return this.output;
  }

  /** Keeps the output's tail and reads the runner's lines (whole lines only). */
  private take(text: string): void {
    this.output = (this.output + text).slice(-65_536);
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      const started = /\[runner\]\s+(\w+) started \(pid (\d+)\)/.exec(line);
      if (started) this.started[started[1] as PlatformApp] = Number(started[2]);
      if (line.includes('Workspace platform is up.')) this.up = true;
    }
  }

  /** `du -sh` of the data directory. */
  dataSize(): string {
    return spawnSync('du', ['-sh', join(this.dir, '.data')], { encoding: 'utf8' }).stdout.split(
      '\t',
    )[0];
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGINT');
    await exited;
    if (this.mode === 'services') {
      for (const s of PLATFORM_SERVICES) {
        await dropDatabase(this.env.databaseUrl(s)).catch(() => undefined);
      }
      await this.env.cleanup();
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function platformPorts(base?: number): Promise<Record<PlatformApp, number>> {
  const apps: PlatformApp[] = ['gateway', ...PLATFORM_SERVICES];
  const ports = {} as Record<PlatformApp, number>;
  for (const [i, app] of apps.entries()) ports[app] = base ? base + i : await freePort();
  return ports;
}

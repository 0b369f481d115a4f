import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * A network namespace of the test's own with only loopback up (`ip netns add`): nothing of this
 * machine listens in it, so PostgreSQL, Redis and NATS on 5432/6379/4222 are unreachable and
 * the platform's default ports are free. Needs root and iproute2; `open()` answers null
 * otherwise (the commands then run in the machine's namespace).
 */
export class NetworkNamespace {
  private constructor(readonly name: string) {}

  static open(): NetworkNamespace | null {
    if (process.getuid?.() !== 0) return null;
    const name = `wp-embedded-${randomBytes(4).toString('hex')}`;
    if (spawnSync('ip', ['netns', 'add', name]).status !== 0) return null;
    spawnSync('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
    return new NetworkNamespace(name);
  }

  /** The command line that runs `command` inside the namespace. */
  wrap(command: string, args: string[]): [string, string[]] {
    return ['ip', ['netns', 'exec', this.name, command, ...args]];
  }

  close(): void {
    spawnSync('ip', ['netns', 'delete', this.name]);
  }
}

/** Runs a command in the namespace (or here when there is none). */
export function runIn(
  ns: NetworkNamespace | null,
  command: string,
  args: string[],
): { status: number | null; stdout: string } {
  const [cmd, argv] = ns ? ns.wrap(command, args) : [command, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout ?? '' };
}

/** Whether something accepts TCP connections on 127.0.0.1:port, seen from the namespace. */
export function listening(ns: NetworkNamespace | null, port: number): boolean {
  return runIn(ns, 'bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`]).status === 0;
}

/**
 * `npm start` as a new user runs it (already installed and built): `node scripts/start.js` in a
 * working directory of its own (its `.env` and `./.data`), with an environment holding nothing
 * but PATH and HOME, inside the namespace when there is one. Collects what it prints.
 */
export class NpmStart {
  readonly dir: string;
  output = '';
  private child?: ChildProcess;
  private exit?: Promise<number | null>;

  constructor(
    readonly ns: NetworkNamespace | null,
    readonly env: Record<string, string> = {},
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'wp-npm-start-'));
    chmodSync(this.dir, 0o755); // the postgres OS user (when root) must reach DATA_DIR
  }

  /** Starts it; resolves when the banner is printed. */
  async start(timeoutMs = 240_000): Promise<void> {
    const from = this.output.length;
    const [cmd, argv] = this.ns
      ? this.ns.wrap(process.execPath, [join(ROOT, 'scripts', 'start.js')])
      : [process.execPath, [join(ROOT, 'scripts', 'start.js')]];
    const child = spawn(cmd, argv, {
      cwd: this.dir,
      env: { PATH: process.env['PATH'] ?? '', HOME: this.dir, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await this.waitFor(/Workspace platform is up\./, timeoutMs, from);
  }

  /** Waits until the output since `from` matches; fails early if the runner exits. */
  async waitFor(pattern: RegExp, timeoutMs: number, from = 0): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exit?.then(() => (exited = true));
    for (;;) {
      const match = this.output.slice(from).match(pattern);
      if (match) return match;
      if (exited || Date.now() > deadline) {
        throw new Error(
          `npm start ${exited ? 'exited' : 'timed out'} before ${pattern}:\n${this.output.slice(-3000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Ctrl-C; resolves with the exit code. */
  async interrupt(): Promise<number | null> {
    this.signalRunner('SIGINT');
    return (await this.exit) ?? null;
  }

  /** `kill -9` of the runner itself. */
  async kill9(): Promise<void> {
    this.signalRunner('SIGKILL');
    await this.exit;
  }

  /** The pid of one of the apps, from the runner's `<app> started (pid N)` lines (the latest). */
  pidOf(app: string): number {
    const all = [...this.output.matchAll(new RegExp(`${app} started \\(pid (\\d+)\\)`, 'g'))];
    return Number(all[all.length - 1][1]);
  }

  /** A variable of the `.env` the first start generated. */
  dotenv(name: string): string {
    const line = readFileSync(join(this.dir, '.env'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}=`));
    return (line ?? '').slice(name.length + 1).replace(/^"|"$/g, '');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** `ip netns exec` replaces itself with the runner: its pid is the runner's. */
  private signalRunner(signal: NodeJS.Signals): void {
    if (this.child?.pid) process.kill(this.child.pid, signal);
  }
}

/**
 * GETs sent to `urls` from `concurrency` loops inside the namespace (test/support/http-load.js)
 * until `stop()`, which resolves with how often each status came back.
 */
export function startLoad(
  ns: NetworkNamespace | null,
  concurrency: number,
  headers: Record<string, string>,
  urls: string[],
): { stop: () => Promise<Record<string, number>> } {
  const args = [
    join(ROOT, 'test', 'support', 'http-load.js'),
    String(concurrency),
    JSON.stringify(headers),
    ...urls,
  ];
  const [cmd, argv] = ns ? ns.wrap(process.execPath, args) : [process.execPath, args];
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stop: async () => {
      child.kill('SIGTERM'); // `ip netns exec` replaced itself with node: this is the loader
      await exited;
      return JSON.parse(out.trim() || '{}') as Record<string, number>;
    },
  };
}

/** An HTTP answer as curl saw it. */
export interface CurlAnswer {
  status: number;
  body: any;
}

/** One request with curl from inside the namespace, as README § Quick start walks it. */
export function curl(
  ns: NetworkNamespace | null,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): CurlAnswer {
  const args = ['-s', '-m', '20', '-X', method, url, '-w', '\n%{http_code}'];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    args.push('-H', `${name}: ${value}`);
  }
  if (options.body !== undefined) {
    args.push('-H', 'content-type: application/json', '-d', JSON.stringify(options.body));
  }
  const { stdout } = runIn(ns, 'curl', args);
  const at = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, at);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: Number(stdout.slice(at + 1)), body };
}

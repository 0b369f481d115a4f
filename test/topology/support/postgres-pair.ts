import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, waitFor, waitForPort } from '@wp/testing';

/** Debian's PostgreSQL binaries (initdb, pg_basebackup, pg_ctl, postgres), newest major. */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).map(Number).filter(Boolean) : [];
  if (!majors.length) throw new Error(`no PostgreSQL under ${root}`);
  return join(root, String(Math.max(...majors)), 'bin');
}

/** As root the servers run as the `postgres` OS user (PostgreSQL refuses root). */
function osUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres']).stdout.toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

interface Server {
  dir: string;
  port: number;
  process?: ChildProcess;
}

/**
 * A PostgreSQL primary with one streaming replica, each its own server on a private loopback
 * port and directory: the replica made by `pg_basebackup -R` and the primary committing
 * synchronously (`synchronous_standby_names = '*'`, `synchronous_commit = on`: a commit is
 * acknowledged once the replica has it) or, with `{ synchronous: false }`, asynchronously
 * (`synchronous_standby_names = ''`: acknowledged once on the primary's disk, streamed after).
 * The replica can be promoted and the primary killed.
 */
export class PostgresPair {
  private readonly root = mkdtempSync(join(tmpdir(), 'wp-pg-pair-'));
  private readonly bin = binaries();
  private readonly user = osUser();
  readonly primary: Server;
  readonly replica: Server;

  private constructor(
    primaryPort: number,
    replicaPort: number,
    /** Whether the primary waits for the replica before acknowledging a commit. */
    readonly synchronous: boolean,
  ) {
    if (this.user) chownSync(this.root, this.user.uid, this.user.gid);
    this.primary = { dir: join(this.root, 'primary'), port: primaryPort };
    this.replica = { dir: join(this.root, 'replica'), port: replicaPort };
    mkdirSync(join(this.root, 'sockets'));
    if (this.user) chownSync(join(this.root, 'sockets'), this.user.uid, this.user.gid);
  }

  /** @throws when a step fails; whatever it started is stopped first. */
  static async start(
    options: { synchronous: boolean } = { synchronous: true },
  ): Promise<PostgresPair> {
    const pair = new PostgresPair(await freePort(), await freePort(), options.synchronous);
    try {
      await pair.setUp();
      return pair;
    } catch (error) {
      await pair.stop();
      throw error;
    }
  }

  private async setUp(): Promise<void> {
    this.run('initdb', ['-D', this.primary.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await this.launch(this.primary, [
      '-c',
      'wal_level=replica',
      '-c',
      'max_wal_senders=5',
      '-c',
      `synchronous_standby_names=${this.synchronous ? '*' : ''}`,
      '-c',
      'synchronous_commit=on',
      '-c',
      'max_connections=200',
    ]);
    this.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.primary.port),
      '-U',
      'postgres',
      '-D',
      this.replica.dir,
      '-R',
      '-X',
      'stream',
    ]);
    await this.launch(this.replica, ['-c', 'max_connections=200', '-c', 'hot_standby=on']);
    await waitFor(() => this.streaming(), { timeoutMs: 20_000, what: 'the replica streaming' });
  }

  /** One query on a server, its own connection. */
  async query<T = any>(server: Server, sql: string): Promise<T[]> {
    const client = new Client({ connectionString: `${this.url(server)}/postgres` });
    try {
      await client.connect();
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** `postgres://postgres@127.0.0.1:<port>` of a server. */
  url(server: Server): string {
    return `postgres://postgres@127.0.0.1:${server.port}`;
  }

  /** Whether the primary sees the replica streaming, as a synchronous or an asynchronous standby. */
  async streaming(): Promise<boolean> {
    const rows = await this.query<{ n: number }>(
      this.primary,
      `SELECT count(*)::int AS n FROM pg_stat_replication
       WHERE state = 'streaming' AND sync_state = '${this.synchronous ? 'sync' : 'async'}'`,
    );
    return rows[0]?.n === 1;
  }

  /**
   * `pg_ctl promote -w` of the replica: resolves once it has left recovery and accepts writes
   * (a child process, so the event loop — the platform under test — keeps running).
   */
  promote(): Promise<void> {
    const child = spawn(join(this.bin, 'pg_ctl'), ['promote', '-w', '-D', this.replica.dir], {
      stdio: 'ignore',
      cwd: this.root,
      ...this.user,
    });
    return new Promise((resolve, reject) =>
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`pg_ctl promote exited ${code}`)),
      ),
    );
  }

  /** SIGKILL of a server's postmaster. */
  async kill(server: Server): Promise<void> {
    const child = server.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    await this.kill(this.primary);
    await this.kill(this.replica);
    // A killed postmaster's backends exit on their own once they notice it is gone.
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(this.root, { recursive: true, force: true });
  }

  private async launch(server: Server, settings: string[]): Promise<void> {
    server.process = spawn(
      join(this.bin, 'postgres'),
      [
        '-D',
        server.dir,
        '-p',
        String(server.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${join(this.root, 'sockets')}`,
        '-c',
        'fsync=on',
        ...settings,
      ],
      { stdio: 'ignore', cwd: this.root, ...this.user },
    );
    await waitForPort(server.port, 30_000, `postgres on ${server.port}`);
    // Listening is not accepting: a server starting up answers 57P03 for a while.
    await waitFor(() => this.query(server, 'SELECT 1').then(() => true), {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: `postgres on ${server.port} accepting connections`,
    });
  }

  private run(binary: string, args: string[]): string {
    const r = spawnSync(join(this.bin, binary), args, {
      encoding: 'utf8',
      cwd: this.root,
      ...this.user,
    });
    if (r.status !== 0) {
      throw new Error(`${binary} ${args.join(' ')}: ${r.stderr || r.error}`);
    }
    return r.stdout ?? '';
  }
}

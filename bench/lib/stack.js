// Starts the compiled services (`apps/<name>/dist/main.js`, as `npm start` does) as child
// processes on free loopback ports with a BenchEnvironment, waits until they answer, and stops
// them. Each child's output is kept (last lines) and shown if it dies or never becomes ready.
'use strict';
const { spawn, execFile } = require('node:child_process');
const { createServer } = require('node:net');
const { join } = require('node:path');
const { promisify } = require('node:util');

const ROOT = join(__dirname, '..', '..');
const KEEP_LINES = 40;

/** A free TCP port on 127.0.0.1 (asked from the kernel; released before the child binds it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `node apps/<service>/dist/migrate.js` on a fresh database of the environment. */
async function migrate(benchEnv, service) {
  benchEnv.database(service);
  try {
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'apps', service, 'dist', 'migrate.js')],
      { env: benchEnv.env, cwd: ROOT, timeout: 120_000 },
    );
  } catch (error) {
    throw new Error(`${service} migration failed: ${error.stderr || error.message}`);
  }
}

/**
 * Extra Node flags for the started services from `BENCH_PROFILE_DIR`: each service writes a V8
 * CPU profile (`<service>.cpuprofile`, open in Chrome DevTools) there when it stops.
 */
function nodeArgs(name) {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

class ServiceProcess {
  constructor(name, port, child) {
    this.name = name;
    this.port = port;
    this.child = child;
    this.url = `http://127.0.0.1:${port}`;
    this.lines = [];
    const keep = (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        this.lines.push(line);
        if (this.lines.length > KEEP_LINES) this.lines.shift();
      }
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code)),
    );
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  output() {
    return this.lines.map((l) => `  [${this.name}] ${l}`).join('\n');
  }

  /** Polls `path` until it answers 200 (`/health/ready`). */
  async waitReady(path, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited during start:\n${this.output()}`);
      try {
        const res = await fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        throw new Error(`${this.name} not ready within ${timeoutMs} ms:\n${this.output()}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stop(timeoutMs = 10_000) {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * The services a bench talks to. `start(['auth'])` migrates and starts auth, then a gateway in
 * front of it; every other upstream of the gateway points at a closed port (answers 502).
 */
class BenchStack {
  constructor(benchEnv) {
    this.benchEnv = benchEnv;
    /** @type {Map<string, ServiceProcess>} */
    this.services = new Map();
  }

  /** @param {string[]} names services behind the gateway, e.g. ['auth'] */
  async start(names, gatewayOverrides = {}) {
    await this.benchEnv.startNats(freePort);
    const upstreams = {};
    for (const name of names) {
      await migrate(this.benchEnv, name);
      const port = await freePort();
      await this.spawn(name, { [`${name.toUpperCase()}_PORT`]: String(port) }, port);
      upstreams[`${name.toUpperCase()}_UPSTREAM_URL`] = `http://127.0.0.1:${port}`;
    }
    const unused = `http://127.0.0.1:${await freePort()}`;
    for (const other of ['auth', 'org', 'wallet', 'analytics']) {
      upstreams[`${other.toUpperCase()}_UPSTREAM_URL`] ??= unused;
    }
    const gatewayPort = await freePort();
    await this.spawn(
      'gateway',
      {
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_RATE_LIMIT: '0',
        ...upstreams,
        ...gatewayOverrides,
      },
      gatewayPort,
    );
    return this;
  }

  async spawn(name, extraEnv, port) {
    // Metrics listen on a port of their own (docs/operations.md § Metrics): any free one here.
    const env = { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', ...this.benchEnv.env, ...extraEnv };
    if (name !== 'gateway') env[`${name.toUpperCase()}_HOST`] = '127.0.0.1';
    const child = spawn(
      process.execPath,
      [...nodeArgs(name), join(ROOT, 'apps', name, 'dist', 'main.js')],
      {
        env,
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const service = new ServiceProcess(name, port, child);
    this.services.set(name, service);
    // Readiness checks only a process's own dependencies (the gateway: its store, not upstreams).
    await service.waitReady('/health/ready');
    return service;
  }

  get gatewayUrl() {
    return this.services.get('gateway').url;
  }

  /** Services that died since start (a bench result with a dead service is worthless). */
  dead() {
    return [...this.services.values()].filter((s) => !s.running);
  }

  async stop() {
    for (const service of [...this.services.values()].reverse()) await service.stop();
  }
}

module.exports = { BenchStack, freePort };

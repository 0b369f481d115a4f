// An isolated environment for one bench invocation: fresh keys, its own database names, Redis key
// prefix and NATS namespace, so a bench never touches a developer's `npm start` data or another
// run's. `cleanup()` drops what it created (databases, streams, keys).
//
// NATS: when a `nats-server` binary is installed (and BENCH_NATS_URL is not set), the bench runs
// its own private server (JetStream, temporary store, free port) instead of the shared one, so
// it neither depends on nor disturbs the shared server.
'use strict';
const { spawn } = require('node:child_process');
const { generateKeyPairSync, randomBytes } = require('node:crypto');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { connect: connectTcp } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { Redis } = require('ioredis');
const { connect } = require('nats');

const SERVERS = {
  postgres: process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432',
  redis: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
  nats: process.env.BENCH_NATS_URL || 'nats://127.0.0.1:4222',
};

const NATS_BINARY = [
  '/usr/sbin/nats-server',
  '/usr/bin/nats-server',
  '/usr/local/bin/nats-server',
].find((p) => existsSync(p));

/** A private nats-server with JetStream on `port`, storing in a temporary directory. */
class PrivateNats {
  constructor(port) {
    this.port = port;
    this.url = `nats://127.0.0.1:${port}`;
    this.storeDir = mkdtempSync(join(tmpdir(), 'wp-bench-nats-'));
    this.child = spawn(
      NATS_BINARY,
      ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', this.storeDir],
      {
        stdio: 'ignore',
      },
    );
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
  }

  async waitReady(timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const open = await new Promise((resolve) => {
        const socket = connectTcp(this.port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      if (open) return;
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`private nats-server on port ${this.port} did not start`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop() {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

class BenchEnvironment {
  /** @param {Record<string, string>} overrides variables every service of this run gets */
  constructor(overrides = {}) {
    this.id = `bench${randomBytes(4).toString('hex')}`;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.apiKey = `wpk_bench_${randomBytes(16).toString('hex')}`;
    /** @type {string[]} database URLs to drop at cleanup */
    this.databases = [];
    this.env = {
      PATH: process.env.PATH || '',
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
      REDIS_URL: SERVERS.redis,
      REDIS_KEY_PREFIX: `${this.id}:`,
      NATS_URL: SERVERS.nats,
      EVENTS_NAMESPACE: this.id,
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      BOOTSTRAP_API_KEY: this.apiKey,
      SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      AUTH_CODE_SECRET: randomBytes(32).toString('base64url'),
      WALLET_TRANSFER_CODE_SECRET: randomBytes(32).toString('base64url'),
      ADMIN_ACCESS_TOKENS: `adm_bench_${randomBytes(16).toString('hex')}`,
      ...overrides,
    };
  }

  /**
   * Starts a private NATS when possible (see above) and points `NATS_URL` at it.
   * @param {() => Promise<number>} freePort
   */
  async startNats(freePort) {
    if (process.env.BENCH_NATS_URL || !NATS_BINARY) return;
    this.nats = new PrivateNats(await freePort());
    await this.nats.waitReady();
    this.env.NATS_URL = this.nats.url;
  }

  /** `postgres://…/wp_<service>_<id>`; registered for cleanup and set as `<SERVICE>_DATABASE_URL`. */
  database(service) {
    const url = `${SERVERS.postgres}/wp_${service}_${this.id}`;
    if (!this.databases.includes(url)) this.databases.push(url);
    this.env[`${service.toUpperCase()}_DATABASE_URL`] = url;
    return url;
  }

  /** Process ids of the PostgreSQL backends connected to a service's database (for CPU time). */
  async backendPids(service) {
    const url = this.env[`${service.toUpperCase()}_DATABASE_URL`];
    if (!url) return [];
    const parsed = new URL(url);
    const name = parsed.pathname.slice(1);
    parsed.pathname = '/postgres';
    const client = new Client({ connectionString: parsed.toString() });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      return rows.map((r) => r.pid);
    } finally {
      await client.end();
    }
  }

  /**
   * Marks `writers`' parts of the shared Redis stores rebuilt, with nothing in them, for a bench
   * that runs without those services (docs/architecture.md § Redis is a cache); libs/testing
   * `TestEnvironment.vouchFor` does the same for the TypeScript benches.
   * @param {('auth' | 'org')[]} writers
   */
  async vouchFor(writers) {
    if (writers.length === 0) return;
    const redis = new Redis(SERVERS.redis, { keyPrefix: this.env.REDIS_KEY_PREFIX });
    try {
      const owned = { auth: ['api_keys', 'deny_list'], org: ['deny_list', 'tenant_versions'] };
      const tx = redis.multi();
      for (const writer of writers) {
        for (const hash of owned[writer]) tx.hset(hash, `~${writer}`, String(Date.now()));
      }
      await tx.exec();
    } finally {
      redis.disconnect();
    }
  }

  /** Drops this run's databases, NATS streams and Redis keys; never throws. */
  async cleanup() {
    const problems = [];
    for (const url of this.databases) {
      await dropDatabase(url).catch((e) => problems.push(`database ${url}: ${e.message}`));
    }
    if (this.nats) {
      await this.nats.stop().catch((e) => problems.push(`private nats: ${e.message}`));
    } else {
      await deleteStreams(this.env.NATS_URL, `${this.id}_`).catch((e) =>
        problems.push(`streams: ${e.message}`),
      );
    }
    await deleteKeys(`${this.id}:`).catch((e) => problems.push(`redis keys: ${e.message}`));
    return problems;
  }
}

async function dropDatabase(url) {
  const parsed = new URL(url);
  const name = parsed.pathname.slice(1);
  if (!/^wp_[a-z]+_bench[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
  parsed.pathname = '/postgres';
  const client = new Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function deleteStreams(url, prefix) {
  const nc = await connect({ servers: url, timeout: 5000 });
  try {
    const jsm = await nc.jetstreamManager();
    const names = [];
    for await (const info of jsm.streams.list()) {
      if (info.config.name.startsWith(prefix)) names.push(info.config.name);
    }
    await Promise.all(names.map((n) => jsm.streams.delete(n)));
  } finally {
    await nc.close();
  }
}

async function deleteKeys(prefix) {
  const redis = new Redis(SERVERS.redis, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

module.exports = { BenchEnvironment, SERVERS };

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import type { DataSource } from 'typeorm';
import { dropDatabase, platformDataSource } from '@wp/persistence';
import { REDIS_HASHES, rebuiltMarker, type CacheWriter } from '@wp/security';
import { copyTemplate, migratedTemplate } from './migrated-template.js';

/**
 * Where the servers are: the usual variables, which the run's global setup sets when it started
 * a server itself (README § Tests), else this machine's default ports.
 */
export const TEST_SERVERS = {
  postgres: process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432',
  redis: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  nats: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
};

/** How a test environment's services reach what Redis and NATS do (docs/architecture.md § Two modes). */
export type TestPlatformMode = 'services' | 'embedded';

/**
 * The mode of environments created without one: `TEST_PLATFORM_MODE` (the `platform-embedded`
 * jest project sets `embedded` to run the cross-service tests a second time, and the run's global
 * setup sets it when Redis and NATS are missing), else `services`.
 */
export function testPlatformMode(): TestPlatformMode {
  return process.env['TEST_PLATFORM_MODE'] === 'embedded' ? 'embedded' : 'services';
}

/**
 * Where Redis and NATS are said to be in embedded mode: a port nothing listens on, so a test
 * fails loudly if anything still tried to use them.
 */
const UNREACHABLE = { redis: 'redis://127.0.0.1:1', nats: 'nats://127.0.0.1:1' };

/** A short random id for database, stream and key names of one test run. */
export function uniqueId(prefix = 't'): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

export interface TestKeys {
  jwtPrivateKey: string;
  jwtPublicKey: string;
  apiKey: string;
  encryptionKey: string;
  adminAccessToken: string;
  codeSecret: string;
  /** `WALLET_TRANSFER_CODE_SECRET`: one key for every wallet process of the environment. */
  transferCodeSecret: string;
}

export function generateTestKeys(): TestKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    apiKey: `wpk_test_${randomBytes(16).toString('hex')}`,
    encryptionKey: randomBytes(32).toString('base64'),
    adminAccessToken: `adm_${randomBytes(16).toString('hex')}`,
    codeSecret: randomBytes(32).toString('base64url'),
    transferCodeSecret: randomBytes(32).toString('base64url'),
  };
}

/**
 * An isolated platform environment for one test file: its own database per service
 * (`wp_<service>_<id>`), and in services mode its own NATS namespace (streams `<id>_ORG`, …) and
 * Redis key prefix; in embedded mode its own platform database `wp_platform_<id>` instead (Redis
 * and NATS pointed at a closed port). Fresh keys. `env` is what the services' config loaders read.
 */
export class TestEnvironment {
  readonly id = uniqueId();
  readonly keys = generateTestKeys();
  readonly env: Record<string, string>;
  private readonly databases: string[] = [];
  private platformPrepared?: Promise<void>;

  constructor(
    overrides: Record<string, string> = {},
    readonly mode: TestPlatformMode = testPlatformMode(),
  ) {
    const embedded = mode === 'embedded';
    this.env = {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      PLATFORM_MODE: mode,
      PLATFORM_DATABASE_URL: this.databaseUrl('platform'),
      REDIS_URL: embedded ? UNREACHABLE.redis : TEST_SERVERS.redis,
      REDIS_KEY_PREFIX: `${this.id}:`,
      NATS_URL: embedded ? UNREACHABLE.nats : TEST_SERVERS.nats,
      EVENTS_NAMESPACE: this.id,
      JWT_PUBLIC_KEY: this.keys.jwtPublicKey,
      JWT_PRIVATE_KEY: this.keys.jwtPrivateKey,
      BOOTSTRAP_API_KEY: this.keys.apiKey,
      SECRETS_ENCRYPTION_KEY: this.keys.encryptionKey,
      ADMIN_ACCESS_TOKENS: this.keys.adminAccessToken,
      AUTH_CODE_SECRET: this.keys.codeSecret,
      WALLET_TRANSFER_CODE_SECRET: this.keys.transferCodeSecret,
      // Any free port: several apps of several test files run on one machine at once.
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      ...overrides,
    };
  }

  /**
   * The database URL of a service in this environment (`<SERVICE>_DATABASE_URL`).
   * @param server `postgres://user[:password]@host:port` (default the shared test server)
   */
  databaseUrl(service: string, server = TEST_SERVERS.postgres): string {
    return `${server}/wp_${service}_${this.id}`;
  }

  /**
   * Creates a service's database, migrated (a copy of a template migrated once per run,
   * {@link migratedTemplate}), and sets `<SERVICE>_DATABASE_URL`; in embedded mode also the
   * platform database (once, {@link preparePlatform}), which every service needs there.
   * @param dataSource factory of the service's migration DataSource for a URL
   * @param server another PostgreSQL server than the shared one (fault tests' private server)
   */
  async prepareDatabase(
    service: string,
    dataSource: (url: string) => DataSource,
    server?: string,
  ): Promise<string> {
    await this.preparePlatform();
    const url = this.databaseUrl(service, server);
    const serverUrl = server ?? TEST_SERVERS.postgres;
    await copyTemplate(url, await migratedTemplate(service, dataSource, serverUrl));
    this.databases.push(url);
    this.env[`${service.toUpperCase()}_DATABASE_URL`] = url;
    return url;
  }

  /**
   * Embedded mode: creates and migrates the platform database (pg-boss installs its own schema
   * when the first service starts). Services mode: nothing (NATS and Redis need no preparation).
   */
  preparePlatform(): Promise<void> {
    if (this.mode !== 'embedded') return Promise.resolve();
    this.platformPrepared ??= (async () => {
      const url = this.env['PLATFORM_DATABASE_URL'];
      const server = url.slice(0, url.lastIndexOf('/'));
      await copyTemplate(url, await migratedTemplate('platform', platformDataSource, server));
      this.databases.push(url);
    })();
    return this.platformPrepared;
  }

  /**
   * Services mode: marks `writers`' parts of the shared Redis stores rebuilt, with nothing in
   * them (docs/architecture.md § Redis is a cache), for a test that runs without those services
   * and plays them itself (e.g. wallet alone, signing its own tokens and registering its own
   * Api-Key). Without it the stores cannot vouch for their answers and refuse with 503. Embedded
   * mode: nothing (the platform database is never rebuilt).
   */
  async vouchFor(writers: CacheWriter[]): Promise<void> {
    if (this.mode === 'embedded' || writers.length === 0) return;
    const redis = new Redis(this.env['REDIS_URL'], { keyPrefix: this.env['REDIS_KEY_PREFIX'] });
    try {
      const now = String(Date.now());
      const tx = redis.multi();
      for (const writer of writers) {
        const owned =
          writer === 'auth'
            ? [REDIS_HASHES.apiKeys, REDIS_HASHES.denyList]
            : [REDIS_HASHES.denyList, REDIS_HASHES.tenantVersions];
        for (const hash of owned) tx.hset(hash, rebuiltMarker(writer), now);
      }
      await tx.exec();
    } finally {
      redis.disconnect();
    }
  }

  /** Drops the databases, streams and Redis keys of this environment. */
  async cleanup(): Promise<void> {
    await Promise.all(this.databases.map((url) => dropDatabase(url).catch(() => undefined)));
    if (this.mode === 'embedded') return;
    await deleteStreams(this.id).catch(() => undefined);
    await deleteRedisKeys(`${this.id}:`).catch(() => undefined);
  }
}

async function deleteStreams(namespace: string): Promise<void> {
  const nc = await connect({ servers: TEST_SERVERS.nats });
  try {
    const jsm = await nc.jetstreamManager();
    const names: string[] = [];
    for await (const info of jsm.streams.list()) {
      if (info.config.name.startsWith(`${namespace}_`)) names.push(info.config.name);
    }
    await Promise.all(names.map((n) => jsm.streams.delete(n)));
  } finally {
    await nc.close();
  }
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_SERVERS.redis);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

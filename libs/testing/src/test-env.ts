import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import type { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase, runMigrations } from '@wp/persistence';

/** Where the local servers are (override with the usual variables). */
export const TEST_SERVERS = {
  postgres: process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432',
  redis: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  nats: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
};

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
  };
}

/**
 * An isolated platform environment for one test file: its own database per service
 * (`wp_<service>_<id>`), its own NATS namespace (streams `<id>_ORG`, …), its own Redis key
 * prefix, fresh keys. `env` is what the services' config loaders read.
 */
export class TestEnvironment {
  readonly id = uniqueId();
  readonly keys = generateTestKeys();
  readonly env: Record<string, string>;
  private readonly databases: string[] = [];

  constructor(overrides: Record<string, string> = {}) {
    this.env = {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      REDIS_URL: TEST_SERVERS.redis,
      REDIS_KEY_PREFIX: `${this.id}:`,
      NATS_URL: TEST_SERVERS.nats,
      EVENTS_NAMESPACE: this.id,
      JWT_PUBLIC_KEY: this.keys.jwtPublicKey,
      JWT_PRIVATE_KEY: this.keys.jwtPrivateKey,
      BOOTSTRAP_API_KEY: this.keys.apiKey,
      SECRETS_ENCRYPTION_KEY: this.keys.encryptionKey,
      ADMIN_ACCESS_TOKENS: this.keys.adminAccessToken,
      AUTH_CODE_SECRET: this.keys.codeSecret,
      ...overrides,
    };
  }

  /** The database URL of a service in this environment (`<SERVICE>_DATABASE_URL`). */
  databaseUrl(service: string): string {
    return `${TEST_SERVERS.postgres}/wp_${service}_${this.id}`;
  }

  /**
   * Creates and migrates a service's database and sets `<SERVICE>_DATABASE_URL`.
   * @param dataSource factory of the service's migration DataSource for a URL
   */
  async prepareDatabase(service: string, dataSource: (url: string) => DataSource): Promise<string> {
    const url = this.databaseUrl(service);
    await ensureDatabase(url);
    await runMigrations(dataSource(url));
    this.databases.push(url);
    this.env[`${service.toUpperCase()}_DATABASE_URL`] = url;
    return url;
  }

  /** Drops the databases, streams and Redis keys of this environment. */
  async cleanup(): Promise<void> {
    await Promise.all(this.databases.map((url) => dropDatabase(url).catch(() => undefined)));
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

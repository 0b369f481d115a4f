import { Client } from 'pg';
import { dropDatabase, ensureDatabase } from '@wp/persistence';
import { TEST_SERVERS, TestEnvironment, uniqueId } from '@wp/testing';
import { WALLET_MIGRATIONS } from '../../apps/wallet/src/migrations/index.js';
import { ServiceProcess } from '../support/service-process.js';

/**
 * `MIGRATE_ON_START=true` (docs/operations.md § Migrations): replicas starting together on an
 * empty database apply the migrations once, under the advisory lock, and both become ready.
 */
describe('MIGRATE_ON_START with two replicas on an empty database', () => {
  const env = new TestEnvironment();
  const url = `${TEST_SERVERS.postgres}/wp_wallet_${uniqueId('mos')}`;
  const replicas: ServiceProcess[] = [];

  beforeAll(async () => {
    await env.preparePlatform();
    await ensureDatabase(url);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.kill();
    await dropDatabase(url).catch(() => undefined);
    await env.cleanup();
  });

  it('applies every migration exactly once and both replicas are ready', async () => {
    const replicaEnv = { ...env.env, WALLET_DATABASE_URL: url, MIGRATE_ON_START: 'true' };
    const started = await Promise.all([
      ServiceProcess.start('wallet', replicaEnv),
      ServiceProcess.start('wallet', replicaEnv),
    ]);
    replicas.push(...started);
    for (const replica of started) {
      const res = await fetch(`${replica.url}/health/ready`);
      expect(res.status).toBe(200);
    }
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; n: string }>(
        'SELECT name, count(*) AS n FROM schema_migrations GROUP BY name',
      );
      expect(rows).toHaveLength(WALLET_MIGRATIONS.length);
      expect(rows.every((row) => row.n === '1')).toBe(true);
    } finally {
      await db.end();
    }
  });
});

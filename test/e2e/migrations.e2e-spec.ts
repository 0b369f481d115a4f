import { dropDatabase, ensureDatabase, runMigrations, schemaDrift } from '@wp/persistence';
import { TEST_SERVERS, uniqueId } from '@wp/testing';
import type { DataSource } from 'typeorm';
import { analyticsDataSource } from '../../apps/analytics/src/database/data-source.js';
import { authDataSource } from '../../apps/auth/src/database/data-source.js';
import { orgDataSource } from '../../apps/org/src/database/data-source.js';
import { walletDataSource } from '../../apps/wallet/src/database/data-source.js';

/**
 * Migration discipline (docs/decisions.md § Development): on an empty database every service's
 * migrations apply, leave no drift from the entities (generating a migration would yield nothing),
 * and revert completely with their `down()`.
 */
describe.each([
  ['auth', authDataSource],
  ['org', orgDataSource],
  ['wallet', walletDataSource],
  ['analytics', analyticsDataSource],
] as [string, (url: string) => DataSource][])('%s migrations', (service, factory) => {
  const url = `${TEST_SERVERS.postgres}/wp_${service}_${uniqueId('mig')}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    await ensureDatabase(url);
    dataSource = factory(url);
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await dropDatabase(url);
  });

  it('apply on an empty database and match the entities exactly', async () => {
    await runMigrations(dataSource);
    expect(await schemaDrift(dataSource)).toEqual([]);
  });

  it('revert completely and apply again', async () => {
    const count = dataSource.migrations.length;
    for (let i = 0; i < count; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    const tables: { table_name: string }[] = await dataSource.query(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
    );
    expect(tables).toEqual([]);
    await runMigrations(dataSource);
    expect(await schemaDrift(dataSource)).toEqual([]);
  });
});

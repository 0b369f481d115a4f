import { PgBoss, type ConstructorOptions } from 'pg-boss';

/** pg-boss's schema in the platform database. */
export const PG_BOSS_SCHEMA = 'pgboss';

/**
 * A pg-boss instance on the platform database with the platform's settings: its own small pool,
 * `LISTEN/NOTIFY` wake-ups, no cron scheduling (unused). Not started.
 * @param url `PLATFORM_DATABASE_URL`
 * @param name shown in `pg_stat_activity`
 */
export function createPgBoss(url: string, name: string, extra: ConstructorOptions = {}): PgBoss {
  return new PgBoss({
    connectionString: url,
    schema: PG_BOSS_SCHEMA,
    application_name: name,
    max: 4,
    useListenNotify: true,
    schedule: false,
    ...extra,
  });
}

/**
 * Installs or upgrades pg-boss's schema in the platform database (`npm run migrate`, tests), so
 * that services starting together do not race to create it.
 */
export async function installEventQueues(url: string): Promise<void> {
  const boss = createPgBoss(url, 'platform-migrate', { supervise: false, migrate: true });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, close: true });
}

import { databaseUrlField, loadDotenv } from '@wp/config';
import { ensureDatabase, runMigrations } from '@wp/persistence';
import type { DataSource } from 'typeorm';

/** What `migrate.js --status` reports of one service's database. */
export interface MigrationStatus {
  service: string;
  /** Migrations recorded in `schema_migrations`, oldest first. */
  applied: string[];
  /** Migrations of this build not applied yet, in order. */
  pending: string[];
  /** Why the database could not be read (then `applied`/`pending` are empty). */
  error?: string;
}

/**
 * `npm run migrate` for one service: reads `<SERVICE>_DATABASE_URL` (default the local
 * `wp_<service>`), creates the database if needed and applies pending migrations. With
 * `--status` it changes nothing and prints a {@link MigrationStatus} as one JSON line (what the
 * operator CLI's `migrations:status` collects; exit 0 even when the database is unreachable).
 */
export function migrateMain(service: string, dataSource: (url: string) => DataSource): void {
  const main = async () => {
    loadDotenv();
    const url = databaseUrlField(service).parse(
      process.env[`${service.toUpperCase()}_DATABASE_URL`],
    );
    if (process.argv.includes('--status')) {
      process.stdout.write(`${JSON.stringify(await migrationStatus(service, dataSource(url)))}\n`);
      return;
    }
    await ensureDatabase(url);
    const applied = await runMigrations(dataSource(url));
    process.stdout.write(`${service}: ${applied.length} migration(s) applied\n`);
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${service}: migration failed: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

/** Applied and pending migrations of one service's database; changes nothing. */
export async function migrationStatus(
  service: string,
  dataSource: DataSource,
): Promise<MigrationStatus> {
  try {
    await dataSource.initialize();
  } catch (error) {
    return { service, applied: [], pending: [], error: (error as Error).message };
  }
  try {
    const [{ exists }] = await dataSource.query<{ exists: boolean }[]>(
      `SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`,
    );
    const rows: { name: string }[] = exists
      ? await dataSource.query('SELECT name FROM schema_migrations ORDER BY timestamp, id')
      : [];
    const applied = rows.map((r) => r.name);
    const done = new Set(applied);
    const pending = dataSource.migrations
      .map((m) => m.name ?? m.constructor.name)
      .filter((name) => !done.has(name));
    return { service, applied, pending };
  } finally {
    await dataSource.destroy();
  }
}

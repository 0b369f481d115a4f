import { databaseUrlField, loadDotenv } from '@wp/config';
import { ensureDatabase, runMigrations } from '@wp/persistence';
import type { DataSource } from 'typeorm';

/**
 * `npm run migrate` for one service: reads `<SERVICE>_DATABASE_URL` (default the local
 * `wp_<service>`), creates the database if needed and applies pending migrations.
 */
export function migrateMain(service: string, dataSource: (url: string) => DataSource): void {
  const main = async () => {
    loadDotenv();
    const url = databaseUrlField(service).parse(
      process.env[`${service.toUpperCase()}_DATABASE_URL`],
    );
    await ensureDatabase(url);
    const applied = await runMigrations(dataSource(url));
    process.stdout.write(`${service}: ${applied.length} migration(s) applied\n`);
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${service}: migration failed: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

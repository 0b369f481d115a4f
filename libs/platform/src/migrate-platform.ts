import { installEventQueues } from '@wp/messaging';
import { ensureDatabase, platformDataSource, runMigrations } from '@wp/persistence';

/**
 * Creates the platform database of embedded mode if needed, applies its migrations (the stores'
 * tables) and installs pg-boss's schema (docs/architecture.md § Two modes).
 * @param url `PLATFORM_DATABASE_URL`
 * @returns names of the migrations applied
 */
export async function migratePlatform(url: string): Promise<string[]> {
  await ensureDatabase(url);
  const applied = await runMigrations(platformDataSource(url));
  await installEventQueues(url);
  return applied;
}

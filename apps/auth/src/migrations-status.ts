import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { databaseUrlField } from '@wp/config/env';
import type { MigrationStatus } from '@wp/platform';
import { Client } from 'pg';

const SERVICES = ['auth', 'org', 'wallet', 'analytics'] as const;

/**
 * `migrations:status`, in this one process: for every service, the migrations of its build —
 * its own list, `apps/<service>/dist/migrations/index.js` (`src/migrations/index.ts` when the
 * CLI itself runs from sources), exporting `<SERVICE>_MIGRATIONS` — against the names recorded
 * in its database's `schema_migrations`, read with one plain `pg` connection per database
 * (`<SERVICE>_DATABASE_URL` of `env`, default the local `wp_<service>`). The same
 * {@link MigrationStatus} as `migrate.js --status` of each service gives (`migrateMain` of
 * @wp/platform), without a process, TypeORM and the service's modules per service: that loading
 * took seconds each (docs/operations.md § Operator CLI). Changes nothing.
 */
export async function migrationsStatus(
  env: Record<string, string | undefined>,
): Promise<MigrationStatus[]> {
  return Promise.all(SERVICES.map((service) => serviceStatus(service, env)));
}

async function serviceStatus(
  service: string,
  env: Record<string, string | undefined>,
): Promise<MigrationStatus> {
  const list = migrationList(service);
  if (list === null)
    return { service, applied: [], pending: [], error: 'not built (npm run build)' };
  let client: Client;
  let names: string[];
  try {
    const url = databaseUrlField(service).parse(env[`${service.toUpperCase()}_DATABASE_URL`]);
    client = new Client({ connectionString: url, application_name: `${service}-migrate` });
    // The connection is set up while the list loads (its modules load synchronously).
    const connecting = client.connect();
    names = migrationNames(service, list);
    await connecting;
  } catch (error) {
    return { service, applied: [], pending: [], error: (error as Error).message };
  }
  try {
    const [{ exists }] = (
      await client.query<{ exists: boolean }>(
        `SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`,
      )
    ).rows;
    const applied = exists
      ? (
          await client.query<{ name: string }>(
            'SELECT name FROM schema_migrations ORDER BY timestamp, id',
          )
        ).rows.map((r) => r.name)
      : [];
    const done = new Set(applied);
    return { service, applied, pending: names.filter((name) => !done.has(name)) };
  } finally {
    await client.end();
  }
}

/** The module listing a service's migrations in its build; null when the service is not built. */
function migrationList(service: string): string | null {
  const fromSources = __filename.endsWith('.ts');
  const appsDir = join(__dirname, '..', '..');
  const list = fromSources
    ? join(appsDir, service, 'src', 'migrations', 'index.ts')
    : join(appsDir, service, 'dist', 'migrations', 'index.js');
  return existsSync(list) ? list : null;
}

/**
 * The names of a service's migrations, in order, as TypeORM names them (the instance's `name`,
 * else its class name), from its list's `<SERVICE>_MIGRATIONS`.
 */
function migrationNames(service: string, list: string): string[] {
  // Another service's own list, by path (apps never import each other).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = (require(list) as Record<string, unknown>)[
    `${service.toUpperCase()}_MIGRATIONS`
  ] as (new () => { name?: string })[];
  return exported.map((Migration) => new Migration().name ?? Migration.name);
}

/**
 * Runs `migrations:status` and prints it (`--json`: the {@link MigrationStatus} list; else one
 * line per service). @returns the exit code: 1 when a database could not be read, else 0
 */
export async function printMigrationsStatus(
  env: Record<string, string | undefined>,
  json: boolean,
  out: (text: string) => void,
): Promise<number> {
  const statuses = await migrationsStatus(env);
  out(
    json
      ? `${JSON.stringify(statuses, null, 2)}\n`
      : statuses
          .map((s) =>
            s.error
              ? `${s.service}: unavailable (${s.error})\n`
              : `${s.service}: ${s.applied.length} applied, ${s.pending.length} pending${s.pending.length ? `: ${s.pending.join(', ')}` : ''}\n`,
          )
          .join(''),
  );
  return statuses.some((s) => s.error) ? 1 : 0;
}

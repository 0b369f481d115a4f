import { Client } from 'pg';
import type { DataSource } from 'typeorm';

/** The database name of a PostgreSQL URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unsupported database name "${name}"`);
  return name;
}

/** The same URL pointing at the maintenance database `postgres`. */
function adminUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

/** Creates the URL's database when it does not exist (idempotent, safe under concurrency). */
export async function ensureDatabase(url: string, template?: string): Promise<void> {
  const name = databaseName(url);
  const client = new Client({ connectionString: adminUrl(url) });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    const from = template ? ` TEMPLATE "${databaseName(`postgres://x/${template}`)}"` : '';
    try {
      await client.query(`CREATE DATABASE "${name}"${from}`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error; // created meanwhile
    }
  } finally {
    await client.end();
  }
}

/**
 * Drops the URL's database. Sessions still connected get up to `graceMs` to close by themselves
 * (an application shutting down), then are terminated.
 */
export async function dropDatabase(url: string, graceMs = 3000): Promise<void> {
  const name = databaseName(url);
  const client = new Client({ connectionString: adminUrl(url) });
  await client.connect();
  try {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0].n === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Applies pending migrations; returns the names of those applied. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const initialized = dataSource.isInitialized;
  if (!initialized) await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    if (!initialized) await dataSource.destroy();
  }
}

/**
 * Applies pending migrations under a PostgreSQL session advisory lock keyed by `lockName`
 * (`pg_advisory_lock(hashtext('wp:migrate:<service>'))`), held on a connection of its own while
 * the migrations run (each in its transaction) on the pool: replicas starting together apply
 * them once — the first applies, the others wait and then find nothing pending. Returns the
 * names applied by this call (docs/operations.md § Migrations).
 */
export async function runMigrationsLocked(
  dataSource: DataSource,
  lockName: string,
): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
    }
  } finally {
    await lock.release();
  }
}

/**
 * SQL that would bring the schema in line with the entities; empty when migrations and entities
 * agree (the CI drift check).
 */
export async function schemaDrift(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query);
}

import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase, runMigrations } from '@wp/persistence';

const made = new Map<string, Promise<string>>();

/** PostgreSQL's "source database is being accessed by other users" (a session not gone yet). */
const IN_USE = '55006';

/**
 * The name of a database on `server` holding a schema migrated by `dataSource`'s migrations,
 * made once per server and migration set and then copied for every test environment with
 * `CREATE DATABASE … TEMPLATE` (PostgreSQL manual, "Template Databases"): a copy costs a
 * fraction of running every migration again for each test file (README § Tests).
 *
 * Named `wp_template_<schema>_<hash>`, the hash taken over the migration classes' source text,
 * so an edited or added migration gets a template of its own. Made under a PostgreSQL advisory
 * lock keyed by that name, as `<name>_building` renamed when complete, so concurrent test
 * processes make it once and never copy a half-migrated one. Nothing stays connected to it
 * (a template with sessions cannot be copied). Templates stay on the server between runs
 * (a few MB each); `DROP DATABASE` removes an old one.
 * @param schema a label for the name (`auth`, `platform`, …)
 * @param dataSource factory of the migration DataSource for a URL
 * @param server `postgres://user[:password]@host:port`
 */
export function migratedTemplate(
  schema: string,
  dataSource: (url: string) => DataSource,
  server: string,
): Promise<string> {
  const probe = dataSource(`${server}/postgres`);
  const migrations = (probe.options.migrations ?? []) as unknown[];
  const hash = createHash('sha256')
    .update(migrations.map((m) => String(m)).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const name = `wp_template_${schema.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${hash}`;
  const key = `${server}/${name}`;
  let template = made.get(key);
  if (!template) {
    template = makeTemplate(name, dataSource, server);
    made.set(key, template);
    template.catch(() => made.delete(key));
  }
  return template;
}

async function makeTemplate(
  name: string,
  dataSource: (url: string) => DataSource,
  server: string,
): Promise<string> {
  const admin = new Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      const building = `${server}/${name}_building`;
      await dropDatabase(building, 0);
      await ensureDatabase(building);
      await runMigrations(dataSource(building));
      await whileInUse(() => admin.query(`ALTER DATABASE "${name}_building" RENAME TO "${name}"`));
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    await admin.end();
  }
}

/**
 * Creates `url`'s database as a copy of `template` (on the same server). Retries for up to 5 s
 * while a session of the template's making is still closing.
 */
export async function copyTemplate(url: string, template: string): Promise<void> {
  await whileInUse(() => ensureDatabase(url, template));
}

async function whileInUse(work: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      await work();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== IN_USE || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

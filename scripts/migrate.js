#!/usr/bin/env node
// `npm run migrate`: creates each service's database if needed and applies its migrations; in
// embedded mode (PLATFORM_MODE=embedded) the platform database too (its tables and pg-boss's
// schema). All in this one process, side by side, so TypeORM loads once. Reads `.env` of the
// working directory (the environment wins). `npm start` runs it as a child process.
// Each image also ships `node apps/<service>/dist/migrate.js` for one service (deploy/).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const SERVICES = ['auth', 'org', 'wallet', 'analytics'];
const ROOT = join(__dirname, '..');
const dist = (...path) => join(ROOT, ...path);

async function migrate(name, url, run) {
  try {
    const applied = await run(url);
    process.stdout.write(`${name}: ${applied.length} migration(s) applied\n`);
    return true;
  } catch (error) {
    process.stderr.write(`${name}: migration failed: ${error.message}\n`);
    return false;
  }
}

/** Migrates every database of the mode in `env`. @returns true when all succeeded */
async function migrateAll(env = process.env) {
  const { databaseUrlField } = require(dist('libs', 'config', 'dist', 'index.js'));
  const { ensureDatabase, runMigrations } = require(
    dist('libs', 'persistence', 'dist', 'index.js'),
  );
  const jobs = SERVICES.map((service) => {
    const url = databaseUrlField(service).parse(env[`${service.toUpperCase()}_DATABASE_URL`]);
    const source = require(dist('apps', service, 'dist', 'database', 'data-source.js'));
    const dataSource = source[`${service}DataSource`];
    return migrate(service, url, async (u) => {
      await ensureDatabase(u);
      return runMigrations(dataSource(u));
    });
  });
  if (env.PLATFORM_MODE === 'embedded') {
    const { migratePlatform } = require(dist('libs', 'platform', 'dist', 'migrate-platform.js'));
    const url = databaseUrlField('platform').parse(env.PLATFORM_DATABASE_URL);
    jobs.push(migrate('platform', url, migratePlatform));
  }
  return (await Promise.all(jobs)).every(Boolean);
}

if (require.main === module) {
  if (existsSync('.env')) process.loadEnvFile('.env'); // keeps variables already set
  migrateAll().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      process.stderr.write(`migrations failed: ${error.message}\n`);
      process.exit(1);
    },
  );
}
module.exports = { migrateAll, SERVICES };

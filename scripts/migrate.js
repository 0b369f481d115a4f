#!/usr/bin/env node
// `npm run migrate`: creates each service's database if needed and applies its migrations.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const SERVICES = ['auth', 'org', 'wallet', 'analytics'];

function migrateAll(env = process.env) {
  for (const service of SERVICES) {
    const result = spawnSync(
      process.execPath,
      [join(__dirname, '..', 'apps', service, 'dist', 'migrate.js')],
      {
        env,
        stdio: 'inherit',
      },
    );
    if (result.status !== 0) {
      process.stderr.write(`migrations of ${service} failed\n`);
      process.exit(result.status ?? 1);
    }
  }
}

if (require.main === module) migrateAll();
module.exports = { migrateAll, SERVICES };

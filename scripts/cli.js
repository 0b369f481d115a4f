#!/usr/bin/env node
// `npm run cli -- <command>` (README § Operator commands): the auth service's operator CLI
// (apps/auth/src/cli.ts) in the mode `npm start` uses. In embedded mode (the default) it reaches
// the PostgreSQL of DATA_DIR: the one a running `npm start` owns, else one started for the
// command and stopped after it. The arguments are read first (the CLI's own parser,
// apps/auth/src/cli-args.ts): `--help` and usage errors answer at once, no server is started.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'apps', 'auth', 'dist');

async function main() {
  const { parseCliArgs, USAGE } = require(join(dist, 'cli-args.js'));
  const parsed = parseCliArgs(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'usage') {
    process.stderr.write(parsed.message);
    return 2;
  }
  if (existsSync('.env')) process.loadEnvFile('.env'); // keeps variables already set
  const env = { ...process.env };
  let server = null;
  if ((env.PLATFORM_MODE || 'embedded') === 'embedded') {
    const { openEmbedded } = require('./embedded-postgres.js');
    server = await openEmbedded(env.DATA_DIR || '.data', () => undefined);
    env.PLATFORM_MODE = 'embedded';
    env.PLATFORM_DATABASE_URL = server.url('wp_platform');
    for (const service of ['auth', 'org', 'wallet', 'analytics']) {
      env[`${service.toUpperCase()}_DATABASE_URL`] = server.url(`wp_${service}`);
    }
  }
  try {
    // migrations:status runs in this process (apps/auth/src/migrations-status.ts loads little):
    // a second Node start would be most of its time. The other commands load the services'
    // modules and run in their own process.
    if (parsed.command === 'migrations:status') {
      const { printMigrationsStatus } = require(join(dist, 'migrations-status.js'));
      return await printMigrationsStatus(env, parsed.json, (text) => process.stdout.write(text));
    }
    const cli = join(dist, 'cli.js');
    return await new Promise((resolve) =>
      spawn(process.execPath, [cli, ...process.argv.slice(2)], { env, stdio: 'inherit' }).once(
        'exit',
        (c) => resolve(c ?? 1),
      ),
    );
  } finally {
    await server?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`cli: ${error.message}\n`);
    process.exit(1);
  },
);

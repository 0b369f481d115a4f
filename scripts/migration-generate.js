#!/usr/bin/env node
// Generates a TypeORM migration for one service from the difference between its entities and
// the schema its existing migrations produce. Usage: npm run migration:generate -- <service> <Name>
// Writes apps/<service>/src/migrations/<timestamp>-<name>.ts and registers it in migrations/index.ts.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

async function main() {
  const [service, name] = process.argv.slice(2);
  if (!service || !name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    console.error('usage: npm run migration:generate -- <service> <PascalCaseName>');
    process.exit(2);
  }
  const { ensureDatabase, dropDatabase, runMigrations } = require('@wp/persistence');
  const factory = require(
    join(__dirname, '..', 'apps', service, 'dist', 'database', 'data-source.js'),
  );
  const create = Object.values(factory).find((v) => typeof v === 'function');
  const base = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432';
  const url = `${base}/wp_${service}_codegen_${process.pid}`;
  await ensureDatabase(url);
  try {
    await runMigrations(create(url));
    const ds = create(url);
    await ds.initialize();
    const log = await ds.driver.createSchemaBuilder().log();
    await ds.destroy();
    if (log.upQueries.length === 0) {
      console.log(`${service}: entities and migrations agree; nothing to generate`);
      return;
    }
    const ts = Date.now();
    const className = `${name}${ts}`;
    const q = (list) =>
      list
        .map(
          (x) =>
            `    await queryRunner.query(${JSON.stringify(x.query)}${x.parameters && x.parameters.length ? ', ' + JSON.stringify(x.parameters) : ''});`,
        )
        .join('\n');
    const file = `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${q(log.upQueries)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${q(log.downQueries.slice().reverse())}
  }
}
`;
    const kebab = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    const path = join(__dirname, '..', 'apps', service, 'src', 'migrations', `${ts}-${kebab}.ts`);
    writeFileSync(path, file);
    const indexPath = join(__dirname, '..', 'apps', service, 'src', 'migrations', 'index.ts');
    let index = readFileSync(indexPath, 'utf8');
    index =
      `import { ${className} } from './${ts}-${kebab}.js';\n${index.startsWith('import') ? '' : '\n'}` +
      index;
    index = index.replace(
      /= \[([^\]]*)\];/,
      (_m, list) => `= [${list.trim() ? list.trim().replace(/,$/, '') + ', ' : ''}${className}];`,
    );
    writeFileSync(indexPath, index);
    console.log(`wrote ${path} and registered ${className} in migrations/index.ts`);
  } finally {
    await dropDatabase(url);
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});

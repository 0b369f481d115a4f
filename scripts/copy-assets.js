#!/usr/bin/env node
// Part of `npm run build`, after `tsc -b`: copies the files the compiled code reads at run time
// but TypeScript does not emit (today: `.sql`, e.g. the wallet ledger's functions in
// apps/wallet/src/modules/ledger/sql, loaded by a migration) from each project's `src/` to the
// same place under its `dist/`, so `node apps/<app>/dist/…` and the Docker image find them.
'use strict';
const { copyFileSync, existsSync, mkdirSync, readdirSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');

const ASSET_EXTENSIONS = ['.sql'];
const root = join(__dirname, '..');

function* assets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* assets(path);
    else if (ASSET_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) yield path;
  }
}

let copied = 0;
for (const kind of ['apps', 'libs']) {
  for (const project of readdirSync(join(root, kind))) {
    const src = join(root, kind, project, 'src');
    if (!existsSync(src)) continue;
    for (const file of assets(src)) {
      const target = join(root, kind, project, 'dist', relative(src, file));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(file, target);
      copied++;
    }
  }
}
if (process.argv.includes('--verbose')) process.stdout.write(`copied ${copied} asset file(s)\n`);

#!/usr/bin/env node
// Writes the generated TypeScript sources. They are build outputs, not committed
// (docs/api-documentation.md § Generated sources):
//   apps/<service>/src/openapi-metadata.ts — scripts/openapi-metadata.js, from the services' code;
//   libs/client/src/schema.ts             — libs/client/scripts/generate.js, from docs/openapi.json.
// Runs on `npm ci` / `npm install` (the `prepare` script) and before build, type-check, lint and
// jest. Each output is rewritten only when it is missing or its inputs changed since it was
// written (a SHA-256 of the inputs, kept in node_modules/.cache/workspace-platform/), so an
// unchanged tree costs one read of the sources (~0.1 s). `--force` rewrites both.
'use strict';
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const SERVICES = ['auth', 'org', 'wallet', 'analytics'];
const METADATA_FILES = SERVICES.map((s) => `apps/${s}/src/openapi-metadata.ts`);
const SCHEMA_FILE = 'libs/client/src/schema.ts';
const STAMP_FILE = join(root, 'node_modules', '.cache', 'workspace-platform', 'generated.json');

/** Every file under `dir` (relative to the root), skipping dist/ and node_modules/. */
function* filesUnder(dir) {
  if (!existsSync(join(root, dir))) return;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'dist' && entry.name !== 'node_modules') yield* filesUnder(path);
    } else yield path;
  }
}

/** The source folders of every app and library (`apps/<x>/src`, `libs/<x>/src`). */
function sourceFolders() {
  return ['apps', 'libs'].flatMap((kind) =>
    readdirSync(join(root, kind)).map((project) => `${kind}/${project}/src`),
  );
}

/** SHA-256 over the paths and contents of `files`, in sorted order. */
function hashOf(files) {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const outputs = new Set([...METADATA_FILES, SCHEMA_FILE]);
const shared = ['package-lock.json', 'tsconfig.base.json', 'tsconfig.json'];
const TARGETS = [
  {
    name: 'OpenAPI metadata of the services',
    outputs: METADATA_FILES,
    inputs: () => [
      ...shared,
      'scripts/openapi-metadata.js',
      'scripts/openapi-error-codes.js',
      'scripts/openapi-response-schemas.js',
      ...sourceFolders().flatMap((dir) => [...filesUnder(dir)].filter((f) => !outputs.has(f))),
    ],
    write: () =>
      execFileSync(process.execPath, [join(root, 'scripts', 'openapi-metadata.js')], {
        cwd: root,
        stdio: 'inherit',
      }),
  },
  {
    name: 'SDK types (libs/client/src/schema.ts)',
    outputs: [SCHEMA_FILE],
    inputs: () => [...shared, 'docs/openapi.json', 'libs/client/scripts/generate.js'],
    write: () =>
      execFileSync(process.execPath, [join(root, 'libs', 'client', 'scripts', 'generate.js')], {
        cwd: root,
        stdio: 'inherit',
      }),
  },
];

function readStamps() {
  try {
    return JSON.parse(readFileSync(STAMP_FILE, 'utf8'));
  } catch {
    return {};
  }
}

function main() {
  const force = process.argv.includes('--force');
  const stamps = readStamps();
  for (const target of TARGETS) {
    const hash = hashOf(target.inputs());
    const present = target.outputs.every((f) => existsSync(join(root, f)));
    if (!force && present && stamps[target.name] === hash) continue;
    const started = Date.now();
    target.write();
    stamps[target.name] = hash;
    mkdirSync(join(STAMP_FILE, '..'), { recursive: true });
    writeFileSync(STAMP_FILE, `${JSON.stringify(stamps, null, 2)}\n`);
    const took = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `generated ${target.name} in ${took} s (${target.outputs.map((f) => relative('.', join(root, f))).join(', ')})`,
    );
  }
}

main();

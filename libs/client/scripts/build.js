// Builds the package into dist/ (README of the package; docs/api-documentation.md § Client SDK):
//   dist/esm/*.js + *.d.ts  ES modules and declarations (tsc over src/, type-checked);
//   dist/cjs/*.js + *.d.ts  CommonJS: the same sources transpiled, the same declarations;
//   dist/schema.d.ts        the OpenAPI types (src/schema.ts) once, re-exported by both.
// `node scripts/build.js [--out DIR]` (default dist/). Writes src/schema.ts first when it is
// missing or older than docs/openapi.json (scripts/generate.js).
'use strict';
const {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { join, resolve } = require('node:path');
const ts = require('typescript');
const { schemaSource, SCHEMA_FILE } = require('./generate.js');

const root = join(__dirname, '..');
const DOCUMENT_FILE = join(root, '..', '..', 'docs', 'openapi.json');

function outDir() {
  const at = process.argv.indexOf('--out');
  return at === -1 ? join(root, 'dist') : resolve(process.argv[at + 1]);
}

function ensureSchema() {
  const stale =
    !existsSync(SCHEMA_FILE) ||
    (existsSync(DOCUMENT_FILE) && statSync(DOCUMENT_FILE).mtimeMs > statSync(SCHEMA_FILE).mtimeMs);
  if (stale) writeFileSync(SCHEMA_FILE, schemaSource());
}

function fail(diagnostics) {
  const host = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

/** tsc -p tsconfig.esm.json into `dir`: ES modules and declarations, without source maps. */
function emitEsm(dir) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.esm.json'),
    { outDir: dir, sourceMap: false, declarationMap: false, noEmit: false },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) },
  );
  if (config.errors.length > 0) fail(config.errors);
  const program = ts.createProgram(config.fileNames, config.options);
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0) fail(diagnostics);
  return { files: config.fileNames, options: config.options };
}

/** The same sources as CommonJS (transpiled file by file) with the same declarations. */
function emitCjs(esm, dir, options) {
  mkdirSync(dir, { recursive: true });
  for (const file of esm.files) {
    if (file === SCHEMA_FILE) continue;
    const name = file.slice(join(root, 'src').length + 1).replace(/\.ts$/, '');
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { ...options, module: ts.ModuleKind.CommonJS, declaration: false },
    });
    writeFileSync(join(dir, `${name}.js`), outputText);
  }
}

/** Moves the OpenAPI types to dist/schema.d.ts; each build re-exports them from there. */
function shareSchema(dist) {
  const names = [
    ...readFileSync(SCHEMA_FILE, 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm),
  ].map((m) => m[1]);
  renameSync(join(dist, 'esm', 'schema.d.ts'), join(dist, 'schema.d.ts'));
  rmSync(join(dist, 'esm', 'schema.js'), { force: true });
  const stub = `export type { ${names.join(', ')} } from '../schema.js';\n`;
  writeFileSync(join(dist, 'esm', 'schema.d.ts'), stub);
}

function main() {
  const dist = outDir();
  ensureSchema();
  rmSync(dist, { recursive: true, force: true });
  const esm = emitEsm(join(dist, 'esm'));
  shareSchema(dist);
  emitCjs(esm, join(dist, 'cjs'), esm.options);
  for (const file of readdirSync(join(dist, 'esm')).filter((f) => f.endsWith('.d.ts'))) {
    copyFileSync(join(dist, 'esm', file), join(dist, 'cjs', file));
  }
  // One package serves `import` and `require` (package.json "exports").
  writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
}

main();

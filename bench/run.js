#!/usr/bin/env node
// `npm run bench -- <name> [scenario …] [options]`: builds (npm script), then runs one bench.
//
// - JavaScript suites, `bench/<name>.js` exporting `{description, scenarios, run(options)}` (the
//   bench/lib harness; options in lib/options.js): started here with the shared options.
// - TypeScript benches, `bench/<name>.ts` exporting `description` (a one-line string literal)
//   and `main(argv)`: loaded through scripts/ts-register.js; their options are their own, and
//   `--help` prints the comment above their `main`.
//
// `npm run bench -- --list` lists both without loading the TypeScript ones (that takes seconds
// each). Every bench starts its own isolated services, prints results on stdout (progress on
// stderr) and cleans up.
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parseOptions, USAGE } = require('./lib/options.js');

/** `bench/*.js` modules that are suites (they export `run`). */
function jsSuites() {
  return readdirSync(__dirname)
    .filter((f) => f.endsWith('.js') && f !== 'run.js')
    .map((f) => ({ name: f.slice(0, -3), suite: require(join(__dirname, f)) }))
    .filter(({ suite }) => typeof suite.run === 'function')
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `bench/*.ts` files that are benches (they export `main`), read as text. */
function tsBenches() {
  return readdirSync(__dirname)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => ({ name: f.slice(0, -3), source: readFileSync(join(__dirname, f), 'utf8') }))
    .filter(({ source }) => /^export async function main\(/m.test(source))
    .map(({ name, source }) => ({
      name,
      description: /^export const description =\s*'([^']*)';/m.exec(source)?.[1] ?? '',
      help: helpOf(source),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The comment block right above `export async function main`, without its `*` margins. */
function helpOf(source) {
  const match = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export async function main\(/.exec(source);
  if (!match) return '';
  return match[1]
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

function usage(out) {
  out.write('Usage: npm run bench -- <name> [scenario …] [options]\n\nSuites (shared options):\n');
  for (const { name, suite } of jsSuites()) {
    out.write(`  ${name.padEnd(18)} ${suite.description}\n`);
    out.write(`  ${''.padEnd(18)} scenarios: ${suite.scenarios.join(', ')}\n`);
  }
  out.write('\nTypeScript benches (own options; `npm run bench -- <name> --help`):\n');
  for (const { name, description } of tsBenches())
    out.write(`  ${name.padEnd(18)} ${description}\n`);
  out.write(`\nShared options of the suites:\n${USAGE.replace(/^Options:\n/, '')}\n`);
}

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  if (!name || name === '--help' || name === '-h' || name === '--list') {
    usage(process.stdout);
    return 0;
  }
  const ts = tsBenches().find((b) => b.name === name);
  if (ts) {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(`${ts.help}\n`);
      return 0;
    }
    require('../scripts/ts-register.js');
    await require(join(__dirname, `${name}.ts`)).main(rest);
    return process.exitCode ?? 0;
  }
  const found = jsSuites().find((s) => s.name === name);
  if (!found) {
    process.stderr.write(`Unknown bench "${name}".\n\n`);
    usage(process.stderr);
    return 2;
  }
  const { suite } = found;
  let options;
  try {
    options = parseOptions(rest);
  } catch (error) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const unknown = options.scenarios.filter((s) => !suite.scenarios.includes(s));
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown scenario(s) ${unknown.join(', ')}; ${name} has: ${suite.scenarios.join(', ')}\n`,
    );
    return 2;
  }
  if (options.scenarios.length === 0) options.scenarios = [...suite.scenarios];
  return suite.run(options);
}

main().then(
  (code) => process.exit(code ?? 0),
  (error) => {
    process.stderr.write(`bench failed: ${error.stack || error.message}\n`);
    process.exit(1);
  },
);

#!/usr/bin/env node
// `npm run bench -- <suite> [scenario …] [options]`: builds (npm script), then runs one bench
// suite, `bench/<suite>.js`, which starts its own isolated services, prints a results table on
// stdout (progress on stderr) and cleans up. `npm run bench -- --list` lists the suites.
// `npm run bench -- wallet-transfers` runs a TypeScript benchmark's main() instead.
'use strict';
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { parseOptions, USAGE } = require('./lib/options.js');

function suites() {
  return readdirSync(__dirname)
    .filter((f) => f.endsWith('.js') && f !== 'run.js')
    .map((f) => f.slice(0, -3))
    .sort();
}

function usage(out) {
  out.write(`Usage: npm run bench -- <suite> [scenario …] [options]\n\nSuites:\n`);
  for (const name of suites()) {
    const suite = require(join(__dirname, `${name}.js`));
    out.write(`  ${name.padEnd(10)} ${suite.description}\n`);
    out.write(`  ${''.padEnd(10)} scenarios: ${suite.scenarios.join(', ')}\n`);
  }
  out.write(`\n${USAGE}\n`);
}

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  if (!name || name === '--help' || name === '-h' || name === '--list') {
    usage(process.stdout);
    return 0;
  }
  if (!suites().includes(name) && existsSync(join(__dirname, `${name}.ts`))) {
    // TypeScript benchmarks (e.g. wallet-transfers) export main(argv); see docs/wallet.md.
    require('../scripts/ts-register.js');
    await require(join(__dirname, `${name}.ts`)).main(rest);
    return 0;
  }
  if (!suites().includes(name)) {
    process.stderr.write(`Unknown bench suite "${name}".\n\n`);
    usage(process.stderr);
    return 2;
  }
  const suite = require(join(__dirname, `${name}.js`));
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

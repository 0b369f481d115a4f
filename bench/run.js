#!/usr/bin/env node
// `npm run bench [-- <name> [options]]`: runs bench/<name>.ts (default: every benchmark here),
// TypeScript through scripts/ts-register.js. `npm run bench` builds first, so the services the
// benchmarks start run from dist/ as in production. See docs/wallet.md § Benchmark.
'use strict';
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

require('../scripts/ts-register.js');

const names = readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
const [first] = process.argv.slice(2);
const selected = first && !first.startsWith('-') ? [first] : names;
const unknown = selected.filter((n) => !names.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; available: ${names.join(', ')}`);
  process.exit(2);
}

(async () => {
  for (const name of selected) {
    const { main } = require(join(__dirname, `${name}.ts`));
    await main(process.argv.slice(2).filter((a) => a !== name));
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

// `npm run lint:openapi`: lints docs/openapi.json with Spectral (.spectral.yaml) and Redocly
// (redocly.yaml) and fails on any error or warning of either (docs/api-documentation.md
// § Linting). Redocly exits non-zero only on errors, so its warnings are counted here.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const document = 'docs/openapi.json';

const spectral = spawnSync(
  bin('spectral'),
  ['lint', document, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn'],
  { cwd: root, stdio: 'inherit' },
);

const redocly = spawnSync(
  bin('redocly'),
  ['lint', document, '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '10000'],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
let totals = { errors: 1, warnings: 0 };
try {
  const report = JSON.parse(redocly.stdout);
  totals = report.totals;
  for (const problem of report.problems.slice(0, 50)) {
    const where = problem.location?.[0]?.pointer ?? '';
    console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message} ${where}`);
  }
} catch {
  process.stderr.write(redocly.stderr ?? '');
}
console.log(`Redocly: ${totals.errors} errors, ${totals.warnings} warnings`);

const failed = spectral.status !== 0 || totals.errors > 0 || totals.warnings > 0;
process.exit(failed ? 1 : 0);

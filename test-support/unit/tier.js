// Which test files form the unit tier (`npm run test:unit`, jest.unit.config.js; README § Tests,
// docs/decisions.md § Unit tier). The rule: every `*.spec.ts` under an app's or library's `src/`,
// plus the repository checks (`test/docs/**/*.spec.ts`) and the harness's own tests
// (`test-support/**/*.spec.js`), except a file whose first docblock carries `@integration`:
//   /** @integration PostgreSQL, Redis: tests the revocation stores themselves */
// A unit test opens no connection, listens on no port and spawns no process; the unit tier's
// setup (test-support/unit/setup.js) makes any of those fail the test that tried it.
'use strict';
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** The first `/** … *\/` block of a file's text when it starts before any code (jest's rule). */
function firstDocblock(text) {
  const m = /^\s*(?:(?:\/\/[^\n]*\n|#![^\n]*\n|'use strict';?\s*\n)\s*)*(\/\*\*[\s\S]*?\*\/)/.exec(
    text,
  );
  return m ? m[1] : '';
}

/** `@integration reason` of a test file's text, else null. */
function integrationReason(text) {
  const m = /@integration\b\s*([^\n*]*)/.exec(firstDocblock(text));
  return m ? m[1].trim() || 'no reason given' : null;
}

function walk(dir, match, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, match, out);
    else if (match.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every candidate file of the tier (absolute paths), marked or not. */
function candidates(root = ROOT) {
  const files = [];
  for (const kind of ['apps', 'libs']) {
    for (const name of readdirSync(join(root, kind))) {
      walk(join(root, kind, name, 'src'), /\.spec\.ts$/, files);
    }
  }
  walk(join(root, 'test', 'docs'), /\.spec\.ts$/, files);
  walk(join(root, 'test-support'), /\.spec\.js$/, files);
  return files.sort();
}

/** The tier: `{ unit, integration }`, absolute paths; integration entries carry their reason. */
function classify(root = ROOT) {
  const unit = [];
  const integration = [];
  for (const file of candidates(root)) {
    const reason = integrationReason(readFileSync(file, 'utf8'));
    if (reason === null) unit.push(file);
    else integration.push({ file, reason, relative: relative(root, file) });
  }
  return { unit, integration };
}

module.exports = { ROOT, candidates, classify, firstDocblock, integrationReason };

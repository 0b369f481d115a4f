// `TEST_SCOPE=servers npm test` (README § Tests, "CI's two runs"): only the test files whose
// run differs when PostgreSQL, Redis and NATS answer. CI runs everything on a bare machine
// first (embedded mode throughout, the Redis/NATS parts skipped with their reasons), then this
// scope with the servers, so every file runs at least once where it means something and no
// file runs twice in the same configuration. What differs with the servers:
// - a project that declares servers (`testEnvironmentOptions.needsServers`: `platform`, the
//   cross-service tests in services mode);
// - each app's and library's `test/` folder: their stacks use Redis and NATS when these
//   answer, the PostgreSQL bus and in-process stores when not (libs/testing § testPlatformMode);
// - any file that declares servers in its docblock (`@needsServers`) or checks for them part
//   by part (`describeWithServers`, `describeIf`).
// Everything else (unit specs, the embedded-mode twins, `npm start`, repository checks, the
// harness) behaves the same with or without servers and runs in the bare-machine run only.
'use strict';
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const DECLARES_SERVERS = /@needsServers|describeWithServers|describeIf\(/;
const TEST_FILE = /\.(e2e-)?spec\.(ts|js)$/;

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (TEST_FILE.test(entry.name)) out.push(path);
  }
  return out;
}

/** Whether a test file (absolute path) of a project rooted at `rootDir` belongs to the scope. */
function needsServers(file, rootDir) {
  const inner = relative(rootDir, file).split(sep);
  const underTest = /[\\/](apps|libs)[\\/][^\\/]+$/.test(rootDir) && inner[0] === 'test';
  return underTest || DECLARES_SERVERS.test(readFileSync(file, 'utf8'));
}

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The jest projects of `TEST_SCOPE=servers`: a project that declares servers as it is; any
 * other with its test files narrowed to the scope (an exact `testRegex`, matched against the
 * files its own `testMatch` would take), and left out when none is.
 * @param projects jest project configs (jest.config.js), with `rootDir` and `testMatch`
 */
function serversScope(projects) {
  const micromatch = require('micromatch');
  const out = [];
  for (const project of projects) {
    if (project.testEnvironmentOptions?.needsServers) {
      out.push(project);
      continue;
    }
    const globs = (project.testMatch ?? []).map((g) => g.replace('<rootDir>', project.rootDir));
    const files = walk(project.rootDir).filter(
      (f) => micromatch.isMatch(f, globs) && needsServers(f, project.rootDir),
    );
    if (files.length === 0) continue;
    out.push({
      ...project,
      testMatch: undefined,
      testRegex: [`^(${files.map(escape).join('|')})$`],
    });
  }
  return out;
}

module.exports = { serversScope, needsServers };

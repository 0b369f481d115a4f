// Skips with a stated reason (README § Tests): whatever does not run is recorded here by the test
// environment (a whole file or project) or by libs/testing's `describeIf` (a part of a file), one
// JSON line each in the run's TEST_SKIPS_FILE, and named by the summary reporter.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** What the platform needs of each server name (`redis`, `nats`), for messages. */
const SERVER_NAMES = { postgres: 'PostgreSQL', redis: 'Redis', nats: 'NATS' };

/** The servers this run lacks (global setup's `TEST_MISSING_SERVERS`, e.g. `redis,nats`). */
function missingServers() {
  return (process.env.TEST_MISSING_SERVERS ?? '').split(',').filter(Boolean);
}

/** The label of a skip for lacking `servers`: `no Redis/NATS`. */
function lackLabel(servers) {
  return `no ${servers.map((s) => SERVER_NAMES[s] ?? s).join('/')}`;
}

/**
 * Appends one skip record: `{ file, part, group, reason }` (file relative to the repository; part
 * the skipped describe's title or null for the whole file).
 */
function recordSkip(record) {
  const file = process.env.TEST_SKIPS_FILE;
  if (!file) return;
  const line = { ...record, file: path.relative(ROOT, record.file) };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}

function readSkips(file = process.env.TEST_SKIPS_FILE) {
  if (!file || !fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * `(no Redis/NATS: reason ×3, other reason (file); services mode only: …)`: each group, each
 * reason once with how many suites it skipped (or the one file's name).
 */
function summarize(records, unexplained = 0) {
  const groups = new Map();
  for (const r of records) {
    const reasons = groups.get(r.group) ?? new Map();
    groups.set(r.group, reasons);
    const files = reasons.get(r.reason) ?? new Set();
    reasons.set(r.reason, files.add(r.file));
  }
  const parts = [...groups].map(([group, reasons]) => {
    const named = [...reasons].map(([reason, files]) =>
      files.size === 1 ? `${reason} (${path.basename([...files][0])})` : `${reason} ×${files.size}`,
    );
    return `${group}: ${named.join(', ')}`;
  });
  if (unexplained) parts.push(`${unexplained} without a stated reason`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

module.exports = { lackLabel, missingServers, readSkips, recordSkip, summarize, SERVER_NAMES };

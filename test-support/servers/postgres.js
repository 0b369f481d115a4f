// The test run's own PostgreSQL (README § Tests): when TEST_POSTGRES_URL is not set and nothing
// answers on 127.0.0.1:5432, a throwaway cluster of the server binaries `npm start` uses
// (scripts/embedded-postgres.js: a free port, as root a cluster of the `postgres` OS user) in a
// folder under the OS temp dir. Durability is off (fsync, synchronous_commit, full_page_writes):
// the cluster lives for one run. A detached watchdog (servers/watchdog.js) stops it and removes
// the folder if jest dies without its global teardown.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EmbeddedPostgres } = require('../../scripts/embedded-postgres.js');

const THROWAWAY = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/**
 * Starts the cluster; `url` is `postgres://postgres:<password>@127.0.0.1:<port>` (no database,
 * the form of TEST_POSTGRES_URL), `stop()` shuts it down and removes its folder.
 */
async function startTestPostgres(log) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wp-test-postgres-'));
  fs.chmodSync(dataDir, 0o755); // as root the server runs as the postgres OS user
  const watchdog = spawn(
    process.execPath,
    [path.join(__dirname, 'watchdog.js'), String(process.pid), dataDir],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  const server = new EmbeddedPostgres({ dataDir, log, settings: THROWAWAY });
  try {
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    dataDir,
    url: server.url('').replace(/\/$/, ''),
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

module.exports = { startTestPostgres };

// Finds or starts the servers the tests use (README § Tests), before any test file runs:
// - PostgreSQL: TEST_POSTGRES_URL, else 127.0.0.1:5432, else a throwaway cluster of the server
//   `npm start` uses (servers/postgres.js), its URL put in TEST_POSTGRES_URL.
// - Redis and NATS: REDIS_URL / NATS_URL, else 127.0.0.1:6379 / :4222, else containers when a
//   container engine answers (servers/containers.js), else none: the run goes on in embedded mode
//   (TEST_PLATFORM_MODE=embedded, PostgreSQL only) and the files that test the Redis and JetStream
//   transports themselves are skipped with their reason (environment.js, TEST_MISSING_SERVERS).
// Workers inherit these variables. What was started is stopped by global-teardown.js.
const fs = require('node:fs');
const path = require('node:path');
const { endpointOf, reachable } = require('./servers/probe.js');
const { SERVER_NAMES } = require('./skips.js');

const say = (line) => process.stdout.write(`[test servers] ${line}\n`);

/** Per server: the variable that names it, the URL when unset, its default port. */
const SERVERS = {
  postgres: {
    variable: 'TEST_POSTGRES_URL',
    url: 'postgres://postgres@127.0.0.1:5432',
    port: 5432,
  },
  redis: { variable: 'REDIS_URL', url: 'redis://127.0.0.1:6379', port: 6379 },
  nats: { variable: 'NATS_URL', url: 'nats://127.0.0.1:4222', port: 4222 },
};

/** Whether the server named by its variable (or at its default address) answers. */
async function answers(name) {
  const { variable, url, port } = SERVERS[name];
  const { host, port: p } = endpointOf(process.env[variable] ?? url, port);
  return reachable(host, p);
}

async function providePostgres(started) {
  if (process.env.TEST_POSTGRES_URL) {
    if (await answers('postgres'))
      return say(`PostgreSQL: ${redact(process.env.TEST_POSTGRES_URL)}`);
    throw new Error(`TEST_POSTGRES_URL (${redact(process.env.TEST_POSTGRES_URL)}) does not answer`);
  }
  if (await answers('postgres')) return say('PostgreSQL: 127.0.0.1:5432');
  const { startTestPostgres } = require('./servers/postgres.js');
  const t0 = Date.now();
  const server = await startTestPostgres((line) => say(`PostgreSQL: ${line}`));
  started.push(server);
  process.env.TEST_POSTGRES_URL = server.url;
  say(
    `PostgreSQL: nothing on 5432; started the npm package's server on ${endpointOf(server.url).port} in ${Date.now() - t0} ms (${server.dataDir})`,
  );
}

async function provideRedisAndNats(started) {
  const down = [];
  for (const name of ['redis', 'nats']) {
    if (await answers(name))
      say(`${SERVER_NAMES[name]}: ${process.env[SERVERS[name].variable] ?? SERVERS[name].url}`);
    else if (process.env[SERVERS[name].variable])
      throw new Error(
        `${SERVERS[name].variable} (${process.env[SERVERS[name].variable]}) does not answer`,
      );
    else down.push(name);
  }
  if (!down.length) return;
  const containers = require('./servers/containers.js');
  const engine = await containers.detectEngine();
  const names = down.map((n) => SERVER_NAMES[n]).join(' and ');
  if (engine) {
    say(`${names}: not answering; starting containers with ${engine}`);
    const run = await containers.startContainers(down);
    started.push(run);
    for (const name of down) {
      process.env[SERVERS[name].variable] = run.urls[name];
      say(`${SERVER_NAMES[name]}: ${run.urls[name]} (container ${containers.composeImage(name)})`);
    }
    return;
  }
  say(
    `${names}: not answering, and no container engine found: embedded mode (PostgreSQL only); the suites of the Redis and JetStream transports are skipped`,
  );
  process.env.TEST_MISSING_SERVERS = down.join(',');
  process.env.TEST_PLATFORM_MODE ??= 'embedded';
}

function redact(url) {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

module.exports = async () => {
  const started = [];
  globalThis.__WP_TEST_SERVERS__ = started;
  const results = path.join(__dirname, '..', 'test-results');
  fs.mkdirSync(results, { recursive: true });
  process.env.TEST_SKIPS_FILE = path.join(results, `.skips-${process.pid}.jsonl`);
  fs.rmSync(process.env.TEST_SKIPS_FILE, { force: true });
  try {
    await providePostgres(started);
    await provideRedisAndNats(started);
  } catch (error) {
    await Promise.all(started.map((s) => s.stop().catch(() => undefined)));
    throw error;
  }
};

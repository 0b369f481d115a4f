#!/usr/bin/env node
// `npm start` (README § Quick start): runs the platform on this machine in one of two modes
// (docs/architecture.md § Two modes).
//   embedded (default): PostgreSQL from npm under DATA_DIR (default ./.data) holds every
//     database, including the platform database that replaces Redis and NATS;
//   services (PLATFORM_MODE=services): this machine's PostgreSQL, Redis and NATS.
// Then migrates, starts the four services, then the gateway once they answer, and prints the
// gateway URL and the bootstrap Api-Key. A crashed app is restarted (scripts/supervisor.js);
// Ctrl-C or SIGTERM stops everything.
'use strict';
const fs = require('node:fs');
const { join, resolve } = require('node:path');
const { ensureDevEnv } = require('./dev-env.js');
const { spawn } = require('node:child_process');
const { SERVICES } = require('./migrate.js');
const { startMailCatcher } = require('./dev-mail-catcher.js');
const { EmbeddedPostgres, POSTGRES_MAJOR } = require('./embedded-postgres.js');
const { Supervisor } = require('./supervisor.js');
const { chooseLogFormat, prettyAvailable } = require('../libs/observability/dist/log-format.js');

const ROOT = join(__dirname, '..');
const PORTS = { auth: 8081, org: 8082, wallet: 8083, analytics: 8084, gateway: 8080 };
// Each app's metrics listener (docs/operations.md § Metrics): one METRICS_PORT would be shared
// by all five, so `<APP>_METRICS_PORT` chooses per app here.
const METRICS_PORTS = { auth: 9081, org: 9082, wallet: 9083, analytics: 9084, gateway: 9080 };
const metricsPort = (app) => String(env[`${app.toUpperCase()}_METRICS_PORT`] || METRICS_PORTS[app]);
const log = (line) => process.stdout.write(`[runner]    ${line}\n`);

const env = ensureDevEnv();
const mode = env.PLATFORM_MODE || 'embedded';
const dataDir = resolve(env.DATA_DIR || '.data');
const port = (app) => Number(env[`${app.toUpperCase()}_PORT`] || PORTS[app]);
let postgres = null;
let supervisor = null;
let stopMail = null;
let up = false;
let stopping = false;

// Readable logs when a person watches (a terminal, not production): pino-pretty in every app,
// whose output is a pipe to this runner, hence decided here (docs/architecture.md § Logs).
// Every request passes the gateway, so only the gateway writes request lines: one per request.
// JSON otherwise, or whatever LOG_FORMAT / LOG_REQUESTS say.
const logFormat = chooseLogFormat({
  requested: env.LOG_FORMAT,
  isTTY: process.stdout.isTTY === true,
  nodeEnv: env.NODE_ENV,
  prettyAvailable: prettyAvailable(),
});
env.LOG_FORMAT = logFormat;
const serviceEnv = logFormat === 'pretty' && !env.LOG_REQUESTS ? { LOG_REQUESTS: 'false' } : {};

/** Refuses a second runner on the same DATA_DIR; the lock goes when this process exits. */
function lockDataDir() {
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, 'runner.pid');
  if (fs.existsSync(lock)) {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    let running = false;
    try {
      running = pid !== process.pid && process.kill(pid, 0);
    } catch {
      running = false;
    }
    if (running) throw new Error(`another npm start (pid ${pid}) is using DATA_DIR ${dataDir}`);
  }
  fs.writeFileSync(lock, String(process.pid));
  process.on('exit', () => fs.rmSync(lock, { force: true }));
}

/** Embedded mode: PostgreSQL from npm, and every database URL pointing at it. */
async function startEmbedded() {
  const ignored = ['REDIS_URL', 'NATS_URL', 'PLATFORM_DATABASE_URL']
    .concat(SERVICES.map((s) => `${s.toUpperCase()}_DATABASE_URL`))
    .filter((name) => env[name]);
  if (ignored.length > 0) {
    log(`embedded mode ignores ${ignored.join(', ')} (set PLATFORM_MODE=services to use them)`);
  }
  lockDataDir();
  postgres = new EmbeddedPostgres({
    dataDir,
    log,
    onExit: (reason) => {
      if (stopping) return;
      log(`PostgreSQL stopped unexpectedly (${reason}); restarting it`);
      postgres.start().catch((error) => fail(error));
    },
  });
  await postgres.start();
  env.PLATFORM_MODE = 'embedded';
  env.PLATFORM_DATABASE_URL = postgres.url('wp_platform');
  for (const s of SERVICES) env[`${s.toUpperCase()}_DATABASE_URL`] = postgres.url(`wp_${s}`);
}

/** Waits (up to 20 s) for the apps' ports to be free: apps of a killed runner are closing. */
async function waitPortsFree(apps) {
  const net = require('node:net');
  const taken = (p) =>
    new Promise((done) => {
      const socket = net.connect({ host: '127.0.0.1', port: p });
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
  const deadline = Date.now() + 20_000;
  for (const app of apps) {
    let logged = false;
    while ((await taken(port(app))) && Date.now() < deadline) {
      if (!logged) log(`waiting for port ${port(app)} (${app}) to be free`);
      logged = true;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function waitLive(apps) {
  const deadline = Date.now() + 90_000;
  for (const app of apps) {
    const url = `http://127.0.0.1:${port(app)}/health/live`;
    for (;;) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // not yet listening
      }
      if (stopping) return;
      if (Date.now() > deadline) throw new Error(`${app} did not answer ${url} within 90 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function startApp(app) {
  const script = join(ROOT, 'apps', app, 'dist', 'main.js');
  supervisor.start(app, script, {
    env: { ...(app === 'gateway' ? {} : serviceEnv), METRICS_PORT: metricsPort(app) },
    // Before the platform is up an exit is a boot failure (bad setting, port taken): stop.
    onCrash: (reason) => {
      if (up) return true;
      fail(new Error(`${app} failed to start (${reason})`));
      return false;
    },
  });
}

function banner() {
  const gw = `http://localhost:${port('gateway')}`;
  const where =
    mode === 'embedded'
      ? `embedded: PostgreSQL ${POSTGRES_MAJOR} from npm on 127.0.0.1:${postgres.port}, no Redis or NATS\n` +
        `  Data:     ${dataDir} (every database; remove it to start afresh)\n`
      : `services: PostgreSQL, Redis and NATS from the environment (or their local defaults)\n`;
  process.stdout.write(
    `\nWorkspace platform is up.\n` +
      `  Mode:     ${where}` +
      `  Gateway:  ${gw}   (auth_url = org_url = wallet_url = ${gw}/v1/api, analytics_url = ${gw})\n` +
      `  Api-Key:  ${env.BOOTSTRAP_API_KEY}\n` +
      (stopMail ? `  Mail:     printed here as [mail] (no SMTP_URL set)\n` : '') +
      `  Stop:     Ctrl-C\n\n`,
  );
}

async function main() {
  if (mode !== 'embedded' && mode !== 'services') {
    throw new Error(`PLATFORM_MODE must be embedded or services (got "${mode}")`);
  }
  if (mode === 'embedded') await startEmbedded();
  const migrated = await new Promise((done) =>
    spawn(process.execPath, [join(__dirname, 'migrate.js')], { env, stdio: 'inherit' }).once(
      'exit',
      (code) => done(code === 0),
    ),
  );
  if (!migrated) throw new Error('migrations failed');
  if (!env.SMTP_URL) {
    const catcher = await startMailCatcher(0, (text) =>
      process.stdout.write(`${text.replace(/\n$/, '').replace(/^/gm, '[mail]      ')}\n`),
    ).catch(() => null);
    if (catcher) {
      stopMail = catcher.stop;
      env.SMTP_URL = `smtp://127.0.0.1:${catcher.port}`;
    }
  }
  for (const app of ['auth', 'org', 'wallet', 'analytics']) {
    env[`${app.toUpperCase()}_UPSTREAM_URL`] ||= `http://127.0.0.1:${port(app)}`;
  }
  // Ctrl-C stops every app at once and no load balancer sends them requests meanwhile: no
  // drain window (docs/operations.md § Shutdown).
  env.SHUTDOWN_DRAIN_SECONDS ||= '0';
  // Node's on-disk compile cache: an app restarted by the supervisor (or the next npm start)
  // compiles its modules once, not at every start (docs/operations.md § Start-up time).
  env.NODE_COMPILE_CACHE ||= join(ROOT, 'node_modules', '.cache', 'node-compile-cache');
  supervisor = new Supervisor({ env, log });
  const services = ['auth', 'org', 'wallet', 'analytics'];
  await waitPortsFree([...services, 'gateway']);
  for (const app of services) startApp(app);
  // The gateway opens the doors once every service has subscribed to the events it consumes.
  await waitLive(services);
  if (stopping) return;
  startApp('gateway');
  await waitLive(['gateway']);
  if (stopping) return;
  up = true;
  banner();
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  await supervisor?.stopAll();
  await stopMail?.();
  await postgres?.stop();
  log('stopped');
  process.exit(code);
}

function fail(error) {
  process.stderr.write(`npm start: ${error.message}\n`);
  void stop(1);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
main().catch(fail);

// Auth service benchmarks through the gateway (docs/auth.md § Performance). Each figure is printed
// next to a ceiling measured in the same invocation, as the median of several short runs:
//
// - login       POST /v1/api/oauth/token      ceiling: argon2id verifications/s on all cores
//                                             (same parameters as PasswordHasher); target ≥ 70%
// - refresh     POST /v1/api/oauth/token/refresh, every virtual client rotating its own token
//                                             chain; target ≥ 1,000/s (no-op route for reference)
// - token-info  GET /v1/api/oauth/token/info  ceiling: GET /v1/api/oauth/jwks.json, a no-op route
//                                             of auth proxied by the gateway; target ≥ 65%
//
// Throughput comes from a closed loop (connections kept busy); latency (p50/p99) from an open
// loop at a fixed rate (a fraction of the closed-loop figure), measured from each request's
// scheduled send time.
'use strict';
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { argon2Rate } = require('./lib/ceilings.js');
const { cpuMeter } = require('./lib/cpu.js');
const { machineLine, withServices } = require('./lib/harness.js');
const { closedLoop, httpPool, openLoop, request } = require('./lib/load.js');
const { fmtMs, fmtPct, fmtRate, printTable, progress } = require('./lib/report.js');
const { median, summarize } = require('./lib/stats.js');

const description = 'auth service through the gateway: login, refresh, token info';
const scenarios = ['token-info', 'refresh', 'login'];

const USERS = 96; // registered up front; each registration also opens a session
const PASSWORD = 'bench-Passw0rd-long-enough';
const CONNECTIONS = { login: 8, refresh: 32, 'token-info': 32, jwks: 32 };

async function run(options) {
  const started = new Date();
  const rows = [];
  const latencyRows = [];
  const cpuRows = [];
  const notes = [];
  progress(
    `auth bench: ${options.scenarios.join(', ')}; ${options.runs} run(s) × ${options.durationMs / 1000} s per figure`,
  );
  const machineBefore = machineLine();
  const extraEnv = Object.entries(options.env).map(([k, v]) => `${k}=${v}`);

  await withServices(
    {
      services: ['auth'],
      envOverrides: {
        AUTH_EMAIL_ACTIVATION_REQUIRED: 'false',
        LOGIN_RATE_LIMIT: '0',
        REGISTRATION_RATE_LIMIT: '0',
        ...options.env,
      },
    },
    async ({ stack, env, gatewayUrl, apiKey }) => {
      const pool = httpPool(gatewayUrl, 64);
      const pids = async () => ({
        auth: stack.services.get('auth').child.pid,
        gateway: stack.services.get('gateway').child.pid,
        postgres: await env.backendPids('auth').catch(() => []),
      });
      try {
        const ctx = { pool, apiKey, options, rows, latencyRows, cpuRows, notes, pids };
        ctx.users = await registerUsers(ctx);
        for (const name of options.scenarios) {
          await SCENARIOS[name](ctx);
          const dead = stack.dead();
          if (dead.length > 0) {
            throw new Error(
              `${dead.map((d) => d.name).join(', ')} exited during ${name}:\n` +
                dead.map((d) => d.output()).join('\n'),
            );
          }
        }
      } finally {
        await pool.close();
      }
    },
  );

  const out = process.stdout;
  out.write(`\nAuth service through the gateway — ${started.toISOString().slice(0, 16)}Z\n`);
  out.write(`Machine at start: ${machineBefore}\nMachine at end:   ${machineLine()}\n`);
  if (extraEnv.length > 0) out.write(`Service variables added: ${extraEnv.join(' ')}\n`);
  out.write(
    `Figures: median of ${options.runs} run(s) of ${options.durationMs / 1000} s; ` +
      `throughput closed-loop, latency open-loop at ${Math.round(options.openFraction * 100)}% of it.\n\n`,
  );
  printTable(
    [
      'scenario',
      'req/s',
      'min–max',
      'ceiling',
      'ceiling/s',
      'ratio',
      'by CPU',
      'target',
      'p50 / p99 (open loop)',
      'result',
    ],
    rows,
  );
  out.write('\nLatency, open loop (from scheduled send time):\n');
  printTable(['route', 'offered/s', 'done/s', 'p50', 'p99', 'max', 'errors'], latencyRows);
  out.write(
    '\nCPU ms per request, closed loop (auth = loop + pool: its main thread and its other threads,\n' +
      'i.e. argon2 in the libuv pool, GC helpers; postgres = backends of the bench database; ours =\n' +
      "the sum; rest = Redis, NATS and other people's processes; cpu-bound/s = cores × 1000 / ours):\n",
  );
  printTable(
    [
      'measurement',
      'auth',
      'auth loop',
      'auth pool',
      'gateway',
      'postgres',
      'generator',
      'ours',
      'rest',
      'machine busy',
      'cpu-bound/s',
    ],
    cpuRows,
  );
  if (notes.length > 0) out.write(`\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
  return rows.some((r) => r[r.length - 1] === 'ERRORS') ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Set-up

/** Registers USERS accounts (no activation) through the gateway; each answer is a session. */
async function registerUsers({ pool, apiKey }) {
  progress(`registering ${USERS} users…`);
  const t0 = Date.now();
  const users = [];
  const suffix = Date.now().toString(36);
  let next = 0;
  const lane = async () => {
    while (next < USERS) {
      const i = next++;
      const username = `bench-${suffix}-${i}@example.com`;
      const res = await request(pool, {
        method: 'POST',
        path: '/v1/api/users',
        headers: { 'api-key': apiKey },
        body: { username, password: PASSWORD },
      });
      if (res.status !== 200) {
        throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.json)}`);
      }
      const a = res.json.data.attributes;
      users[i] = { username, accessToken: a.accessToken, refreshToken: a.refreshToken };
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() * 2 }, lane));
  progress(`  ${USERS} users registered in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return users;
}

// ---------------------------------------------------------------------------------------------
// Operations (one request each; true = the expected answer)

function jwksOp({ pool }) {
  return async () => {
    const res = await request(pool, { path: '/v1/api/oauth/jwks.json', raw: true });
    return res.status === 200 || `status ${res.status}`;
  };
}

/**
 * The shared request path without argon2: GET jwks.json and POST /oauth/token with no password
 * (400 at validation), alternately.
 */
function requestPathOp({ pool, apiKey }) {
  const jwks = jwksOp({ pool });
  let i = 0;
  return async () => {
    if (i++ % 2 === 0) return jwks();
    const res = await request(pool, {
      method: 'POST',
      path: '/v1/api/oauth/token',
      headers: { 'api-key': apiKey },
      body: { username: 'warm-up@example.com' },
      raw: true,
    });
    return res.status === 400 || `status ${res.status}`;
  };
}

function tokenInfoOp({ pool, apiKey, users }) {
  let i = 0;
  return async () => {
    const user = users[i++ % users.length];
    const res = await request(pool, {
      path: '/v1/api/oauth/token/info',
      headers: { 'api-key': apiKey, authorization: `Bearer ${user.accessToken}` },
      raw: true,
    });
    return res.status === 200 || `status ${res.status}`;
  };
}

function loginOp({ pool, apiKey, users }) {
  let i = 0;
  return async () => {
    const user = users[i++ % users.length];
    const res = await request(pool, {
      method: 'POST',
      path: '/v1/api/oauth/token',
      headers: { 'api-key': apiKey },
      body: { username: user.username, password: PASSWORD },
      raw: true,
    });
    return res.status === 200 || `status ${res.status}`;
  };
}

/**
 * Refresh with token chains: each chain is one session whose latest refresh token is rotated by
 * every request. In the closed loop worker i owns chain i; in the open loop a request takes a
 * free chain (waiting, inside its measured latency, if all are busy) and gives it back. A chain
 * answered with an error is dropped.
 */
function refreshOp({ pool, apiKey }, chains) {
  const free = [...chains];
  const waiting = [];
  const take = () =>
    free.length > 0 ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r));
  const give = (chain) => {
    const next = waiting.shift();
    if (next) next(chain);
    else free.push(chain);
  };
  const rotate = async (chain) => {
    const res = await request(pool, {
      method: 'POST',
      path: '/v1/api/oauth/token/refresh',
      headers: { 'api-key': apiKey },
      body: { refresh_token: chain.refreshToken },
    });
    if (res.status !== 200) {
      chain.dead = true;
      return `status ${res.status} ${res.json?.errors?.[0]?.code ?? ''}`.trim();
    }
    chain.refreshToken = res.json.data.attributes.refreshToken;
    return true;
  };
  return async ({ worker }) => {
    if (worker !== null) {
      const chain = chains[worker];
      if (chain.dead) throw new Error('chain dead after an earlier error');
      return rotate(chain);
    }
    const chain = await take();
    try {
      return await rotate(chain);
    } finally {
      if (!chain.dead) give(chain);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Measurement helpers

async function warmup(name, op, connections, options) {
  if (options.warmupMs <= 0) return;
  progress(`  warm-up ${name} (${options.warmupMs / 1000} s)`);
  await closedLoop({ op, connections, durationMs: options.warmupMs });
}

/** Interleaves runs of several measurements (so machine noise hits them alike); medians. */
async function interleaved(ctx, measurements) {
  const { options } = ctx;
  const runs = measurements.map(() => []);
  for (let r = 0; r < options.runs; r++) {
    for (const [i, m] of measurements.entries()) {
      const result = await m.once();
      runs[i].push(result);
      progress(
        `  run ${r + 1}/${options.runs} ${m.name}: ${fmtRate(result.rate)}/s` +
          (result.errors
            ? ` (${result.errors} errors: ${result.errorSamples.map(([k]) => k).join('; ')})`
            : ''),
      );
    }
  }
  return runs.map((list, i) => {
    const s = summarize(list);
    s.cpu = cpuPerRequest(list);
    ctx.cpuRows.push(cpuRow(measurements[i].name, s.cpu));
    return s;
  });
}

/**
 * Median CPU ms per successful request over `runs`, per process group; `ours` = everything this
 * bench started (services, their PostgreSQL backends, the generator), not other people's work.
 */
function cpuPerRequest(runs) {
  const per = (key) =>
    median(runs.map((r) => (r.cpu && r.cpu[key] !== null && r.ok > 0 ? r.cpu[key] / r.ok : null)));
  const cpu = {};
  for (const key of ['auth', 'authMain', 'gateway', 'postgres', 'self', 'rest']) {
    cpu[key] = per(key);
  }
  cpu.ours = median(
    runs.map((r) =>
      r.cpu && r.ok > 0
        ? ['auth', 'gateway', 'postgres', 'self'].reduce((n, k) => n + (r.cpu[k] ?? 0), 0) / r.ok
        : null,
    ),
  );
  cpu.busyShare = median(runs.map((r) => r.cpu?.busyShare ?? null));
  return cpu;
}

function cpuRow(name, cpu) {
  const ms = (v) => (v === null ? '-' : v.toFixed(2));
  return [
    name,
    ms(cpu.auth),
    ms(cpu.authMain),
    cpu.auth !== null && cpu.authMain !== null ? ms(cpu.auth - cpu.authMain) : '-',
    ms(cpu.gateway),
    ms(cpu.postgres),
    ms(cpu.self),
    ms(cpu.ours),
    ms(cpu.rest),
    fmtPct(cpu.busyShare),
    cpu.ours ? fmtRate((availableParallelism() * 1000) / cpu.ours) : '-',
  ];
}

/** Runs `measure()` with a CPU meter on the services and this process; adds `cpu` to its result. */
async function metered(ctx, measure) {
  const pids = await ctx.pids();
  const meter = cpuMeter(pids, { authMain: pids.auth });
  const result = await measure();
  result.cpu = meter.end();
  return result;
}

function closed(ctx, name, op, connections) {
  const durationMs = ctx.options.durationMs;
  return { name, once: () => metered(ctx, () => closedLoop({ op, connections, durationMs })) };
}

/** Open-loop runs of one route at `rate`/s; appends a latency row. */
async function latency(ctx, name, op, rate) {
  const { options } = ctx;
  const runs = [];
  for (let r = 0; r < options.runs; r++) {
    const result = await openLoop({ op, rate, durationMs: options.durationMs });
    runs.push(result);
    progress(
      `  open loop ${r + 1}/${options.runs} ${name} @ ${rate}/s: p50 ${fmtMs(result.p50)}, p99 ${fmtMs(result.p99)}` +
        (result.errors ? `, ${result.errors} errors` : '') +
        (result.lagP99 > 10
          ? ` (sender lag p99 ${fmtMs(result.lagP99)}: generator saturated)`
          : ''),
    );
  }
  const s = summarize(runs);
  const maxOfRuns = Math.max(...runs.map((r) => r.max ?? 0));
  ctx.latencyRows.push([
    name,
    fmtRate(rate),
    fmtRate(s.rate),
    fmtMs(s.p50),
    fmtMs(s.p99),
    fmtMs(maxOfRuns),
    s.errors,
  ]);
  if (runs.some((r) => r.lagP99 > 10)) {
    ctx.notes.push(
      `${name}: the load generator itself fell behind schedule (lag p99 > 10 ms); its latencies include that.`,
    );
  }
  return s;
}

/** Open-loop rate: a fraction of the measured closed-loop rate, rounded to 2 significant digits. */
function openRate(options, closedRate) {
  const raw = Math.max(1, closedRate * options.openFraction);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 1);
  return Math.max(1, Math.round(raw / magnitude) * magnitude);
}

function resultCell(s, ratio, target) {
  if (s.errors > 0) return 'ERRORS';
  return ratio >= target ? 'met' : 'MISSED';
}

/**
 * The ratio from CPU time instead of wall-clock rates: ceiling CPU per request / scenario CPU
 * per request (both counting only the processes this bench started). Much less sensitive to
 * other people's load than the rate ratio, but blind to contention and to Redis.
 */
function cpuRatio(ceiling, scenario) {
  return ceiling.cpu.ours && scenario.cpu.ours ? ceiling.cpu.ours / scenario.cpu.ours : null;
}

/** Fills the p50/p99 cell of the last throughput row from an open-loop summary. */
function setLatency(ctx, s) {
  const row = ctx.rows[ctx.rows.length - 1];
  row[row.length - 2] = `${fmtMs(s.p50)} / ${fmtMs(s.p99)}`;
}

function spread(s) {
  return `${fmtRate(s.rateMin)}–${fmtRate(s.rateMax)}`;
}

function errorNote(ctx, name, s) {
  if (s.errors === 0) return;
  const samples = new Map();
  for (const run of s.perRun)
    for (const [k, n] of run.errorSamples) samples.set(k, (samples.get(k) || 0) + n);
  ctx.notes.push(
    `${name}: ${s.errors} failed requests (${[...samples].map(([k, n]) => `${n}× ${k}`).join('; ')})`,
  );
}

// ---------------------------------------------------------------------------------------------
// Scenarios

/** The no-op route ceiling, measured once per invocation and shared (token-info, refresh). */
async function measureJwksWith(ctx, name, op, connections) {
  const { options } = ctx;
  const jwks = jwksOp(ctx);
  await warmup('jwks.json', jwks, CONNECTIONS.jwks, options);
  await warmup(name, op, connections, options);
  progress(`${name} vs jwks.json (closed loop)`);
  const [ceiling, scenario] = await interleaved(ctx, [
    closed(ctx, 'jwks.json', jwks, CONNECTIONS.jwks),
    closed(ctx, name, op, connections),
  ]);
  return { ceiling, scenario, jwks };
}

const SCENARIOS = {
  async 'token-info'(ctx) {
    const op = tokenInfoOp(ctx);
    const { ceiling, scenario, jwks } = await measureJwksWith(
      ctx,
      'token-info',
      op,
      CONNECTIONS['token-info'],
    );
    const ratio = scenario.rate / ceiling.rate;
    ctx.rows.push([
      'token/info',
      fmtRate(scenario.rate),
      spread(scenario),
      'jwks.json via gateway',
      fmtRate(ceiling.rate),
      fmtPct(ratio),
      fmtPct(cpuRatio(ceiling, scenario)),
      '≥ 65%',
      '',
      resultCell(scenario, ratio, 0.65),
    ]);
    errorNote(ctx, 'token/info', scenario);
    errorNote(ctx, 'jwks.json', ceiling);
    const rate = openRate(ctx.options, scenario.rate);
    progress('token-info latency (open loop)');
    setLatency(ctx, await latency(ctx, 'GET /oauth/token/info', op, rate));
    await latency(ctx, 'GET /oauth/jwks.json (ceiling)', jwks, rate);
  },

  async refresh(ctx) {
    const { options } = ctx;
    // Closed loop: one chain per connection (sessions opened at registration).
    const chains = ctx.users
      .slice(0, CONNECTIONS.refresh)
      .map((u) => ({ refreshToken: u.refreshToken }));
    const op = refreshOp(ctx, chains);
    const jwks = jwksOp(ctx);
    await warmup('refresh', op, CONNECTIONS.refresh, options);
    // The no-op route, interleaved run by run, shows what the machine allowed meanwhile.
    progress('refresh vs jwks.json reference (closed loop)');
    const [reference, scenario] = await interleaved(ctx, [
      closed(ctx, 'jwks.json (refresh runs)', jwks, CONNECTIONS.jwks),
      closed(ctx, 'refresh', op, CONNECTIONS.refresh),
    ]);
    const ratio = scenario.rate / 1000;
    ctx.rows.push([
      'refresh',
      fmtRate(scenario.rate),
      spread(scenario),
      'jwks.json (reference)',
      fmtRate(reference.rate),
      `${fmtPct(ratio)} of 1,000 (${fmtPct(scenario.rate / reference.rate)} of no-op)`,
      scenario.cpu.ours ? fmtPct((availableParallelism() * 1000) / scenario.cpu.ours / 1000) : '-',
      '≥ 1,000/s',
      '',
      resultCell(scenario, ratio, 1),
    ]);
    errorNote(ctx, 'refresh', scenario);
    // Open loop: all chains shared by the arrivals (more chains than requests in flight).
    const openChains = ctx.users
      .slice(CONNECTIONS.refresh)
      .map((u) => ({ refreshToken: u.refreshToken }));
    progress('refresh latency (open loop)');
    const openOp = refreshOp(ctx, openChains);
    const rate = openRate(options, scenario.rate);
    setLatency(ctx, await latency(ctx, 'POST /oauth/token/refresh', openOp, rate));
  },

  async login(ctx) {
    const { options } = ctx;
    const { ARGON2_OPTIONS } = require(
      join(__dirname, '..', 'apps', 'auth', 'dist', 'modules', 'passwords', 'password-hasher.js'),
    );
    const op = loginOp(ctx);
    // Logins arrive at ~100-200/s, too few for V8 to optimize the gateway's proxy path and
    // auth's request pipeline within a warm-up: run alone, the login measured a JIT-cold
    // gateway (~2× its CPU per request after token-info and refresh). A running deployment
    // serves other traffic through the same code, so bring it there first.
    await warmup('request path (jwks.json + rejected logins)', requestPathOp(ctx), 32, {
      warmupMs: options.warmupMs * 2,
    });
    await warmup('login', op, CONNECTIONS.login, options);
    progress(`login vs argon2id verifications on ${availableParallelism()} cores (closed loop)`);
    const [ceiling, scenario] = await interleaved(ctx, [
      {
        name: 'argon2id (generator process)',
        once: () =>
          metered(ctx, () =>
            argon2Rate({ options: ARGON2_OPTIONS, durationMs: options.durationMs }),
          ),
      },
      closed(ctx, 'login', op, CONNECTIONS.login),
    ]);
    const ratio = scenario.rate / ceiling.rate;
    ctx.rows.push([
      'login',
      fmtRate(scenario.rate),
      spread(scenario),
      `argon2id × ${availableParallelism()} cores`,
      fmtRate(ceiling.rate),
      fmtPct(ratio),
      fmtPct(cpuRatio(ceiling, scenario)),
      '≥ 70%',
      '',
      resultCell(scenario, ratio, 0.7),
    ]);
    errorNote(ctx, 'login', scenario);
    progress('login latency (open loop)');
    setLatency(ctx, await latency(ctx, 'POST /oauth/token', op, openRate(options, scenario.rate)));
  },
};

module.exports = { description, scenarios, run };

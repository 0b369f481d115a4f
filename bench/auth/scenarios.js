// The auth suite's scenarios (token-info, refresh, login), each measured against its ceiling.
'use strict';
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { argon2Rate } = require('../lib/ceilings.js');
const { fmtPct, fmtRate, progress } = require('../lib/report.js');
const { closed, interleaved, latency, metered, openRate, warmup } = require('./measure.js');
const { jwksOp, loginOp, refreshOp, requestPathOp, tokenInfoOp } = require('./operations.js');
const { cpuRatio, errorNote, resultCell, setLatency, spread } = require('./rows.js');

const CONNECTIONS = { login: 8, refresh: 32, 'token-info': 32, jwks: 32 };

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
      join(
        __dirname,
        '..',
        '..',
        'apps',
        'auth',
        'dist',
        'modules',
        'passwords',
        'password-hasher.js',
      ),
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

module.exports = { SCENARIOS };

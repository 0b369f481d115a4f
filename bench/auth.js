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
const { machineLine, withServices } = require('./lib/harness.js');
const { httpPool } = require('./lib/load.js');
const { progress } = require('./lib/report.js');
const { printReport } = require('./auth/report.js');
const { SCENARIOS } = require('./auth/scenarios.js');
const { registerUsers } = require('./auth/users.js');

const description = 'auth service through the gateway: login, refresh, token info';
const scenarios = ['token-info', 'refresh', 'login'];

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

  printReport({ started, machineBefore, extraEnv, options, rows, latencyRows, cpuRows, notes });
  return rows.some((r) => r[r.length - 1] === 'ERRORS') ? 1 : 0;
}

module.exports = { description, scenarios, run };

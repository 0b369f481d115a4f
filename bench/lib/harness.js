// The life cycle of one bench suite: isolated environment → migrate and start services → run the
// scenarios → stop the services → drop the databases, streams and Redis keys. Ctrl-C (or SIGTERM)
// during a run stops and cleans up the same way.
'use strict';
const { availableParallelism, cpus, loadavg } = require('node:os');
const { BenchEnvironment } = require('./env.js');
const { BenchStack } = require('./stack.js');
const { progress } = require('./report.js');

/** One line describing the machine and its load right now (printed with every result table). */
function machineLine() {
  const model = cpus()[0]?.model?.trim() || 'unknown CPU';
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${model}, ${availableParallelism()} cores, Node ${process.version}, load average ${load}`;
}

/**
 * Runs `body({stack, env, gatewayUrl, apiKey})` with `services` (and a gateway) started in a
 * fresh environment carrying `envOverrides`; always stops and cleans up afterwards.
 */
async function withServices({ services, envOverrides = {}, gatewayOverrides = {} }, body) {
  const env = new BenchEnvironment(envOverrides);
  const stack = new BenchStack(env);
  let cleaning = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      await stack.stop().catch((e) => progress(`stopping services: ${e.message}`));
      const problems = await env.cleanup();
      for (const p of problems) progress(`cleanup: ${p}`);
    })();
    return cleaning;
  };
  const onSignal = (signal) => {
    progress(`\n${signal}: stopping services and cleaning up…`);
    void cleanup().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    progress(`environment ${env.id}: migrating and starting ${services.join(', ')} + gateway…`);
    // Writers not started are played by the bench (its tokens, key, events).
    await env.vouchFor(['auth', 'org'].filter((writer) => !services.includes(writer)));
    await stack.start(services, gatewayOverrides);
    return await body({ stack, env, gatewayUrl: stack.gatewayUrl, apiKey: env.apiKey });
  } finally {
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    progress(`environment ${env.id}: services stopped, databases, streams and keys removed`);
  }
}

module.exports = { withServices, machineLine };

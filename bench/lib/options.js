// Command-line options shared by every bench suite:
//   node bench/run.js <suite> [scenario …] [--runs N] [--duration SECONDS] [--quick]
'use strict';

const DEFAULTS = { runs: 5, durationMs: 2000, warmupMs: 1500, openFraction: 0.5 };

function parseOptions(argv) {
  const options = { ...DEFAULTS, scenarios: [], env: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const number = (v, min, max) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < min || n > max) {
        throw new Error(`${arg}: expected a number from ${min} to ${max} (got ${v})`);
      }
      return n;
    };
    if (arg === '--runs') options.runs = Math.round(number(value(), 1, 15));
    else if (arg === '--duration') options.durationMs = number(value(), 0.5, 60) * 1000;
    else if (arg === '--warmup') options.warmupMs = number(value(), 0, 30) * 1000;
    else if (arg === '--open-fraction') options.openFraction = number(value(), 0.05, 1.5);
    else if (arg === '--env') {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(value());
      if (!m) throw new Error('--env: expected NAME=VALUE');
      options.env[m[1]] = m[2];
    } else if (arg === '--quick')
      Object.assign(options, { runs: 1, durationMs: 1500, warmupMs: 500 });
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.scenarios.push(arg);
  }
  return options;
}

const USAGE = `Options:
  --runs N            measured runs per figure; the median is reported (default ${DEFAULTS.runs})
  --duration S        seconds per run (default ${DEFAULTS.durationMs / 1000})
  --warmup S          seconds of unmeasured load before each route (default ${DEFAULTS.warmupMs / 1000})
  --open-fraction F   open-loop rate as a fraction of the measured closed-loop rate (default ${DEFAULTS.openFraction})
  --env NAME=VALUE    extra variable for the services (repeatable), e.g. PASSWORD_HASH_CONCURRENCY=1
  --quick             one short run per figure (smoke test; figures are not meaningful)`;

module.exports = { parseOptions, USAGE };

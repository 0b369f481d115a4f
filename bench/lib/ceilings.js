// Ceilings that are not HTTP routes: CPU-bound work measured in this process, with the machine
// otherwise as idle as the bench leaves it (services started, no load).
'use strict';
const { availableParallelism } = require('node:os');
const { performance } = require('node:perf_hooks');
const argon2 = require('@node-rs/argon2');

/**
 * argon2 verifications per second with `options`, `concurrency` at a time (default: one per
 * core, the bound `PasswordHasher` applies), for `durationMs`. A verification costs what a hash
 * with the same parameters costs; login runs one per request.
 * @returns {{rate, ok, elapsedMs, concurrency}}
 */
async function argon2Rate({ options, durationMs, concurrency = availableParallelism() }) {
  const password = 'bench-password-0001';
  const stored = await argon2.hash(password, options);
  let ok = 0;
  const start = performance.now();
  const end = start + durationMs;
  const lane = async () => {
    while (performance.now() < end) {
      if (!(await argon2.verify(stored, password))) throw new Error('argon2 verify failed');
      ok++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsedMs = performance.now() - start;
  return {
    mode: 'cpu',
    rate: ok / (elapsedMs / 1000),
    ok,
    errors: 0,
    p50: null,
    p99: null,
    elapsedMs,
    concurrency,
  };
}

module.exports = { argon2Rate };

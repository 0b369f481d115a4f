// Preloaded into a service by `--profile DIR` of bench/wallet-transfers.ts (`node --require`):
// each SIGWINCH toggles a V8 CPU profile of the process (sampling every 200 µs); stopping writes
// `$BENCH_PROFILE_DIR/<BENCH_PROFILE_NAME>-<n>.cpuprofile` (open in Chrome DevTools or speedscope).
// Not SIGUSR2 (Nest's shutdown hooks stop the app on it) and not `--cpu-prof` (the process ends
// by a re-raised signal, so it would never write).
'use strict';
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
let running = false;
let count = 0;
process.on('SIGWINCH', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
        session.post('Profiler.start'),
      ),
    );
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    const dir = process.env.BENCH_PROFILE_DIR || '.';
    const name = process.env.BENCH_PROFILE_NAME || String(process.pid);
    writeFileSync(join(dir, `${name}-${count++}.cpuprofile`), JSON.stringify(result.profile));
  });
});

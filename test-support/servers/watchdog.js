// Detached guard of the test run's own PostgreSQL (README § Tests), started by
// test-support/servers/postgres.js: `node watchdog.js <jest pid> <data dir>`. Once a second it
// looks whether jest is still alive; when jest is gone without having cleaned up (Ctrl-C, a crash,
// `kill -9`), it stops the server (fast shutdown, then SIGKILL) and removes the data folder. It
// exits by itself when the folder is gone (jest's global teardown removed it).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [jestPid, dataDir] = [Number(process.argv[2]), process.argv[3]];
const POLL_MS = 1000;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The postmaster's pid from its lock file, when the server still runs. */
function serverPid() {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    return pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

async function cleanUp() {
  const pid = serverPid();
  if (pid) {
    process.kill(pid, 'SIGINT');
    for (let waited = 0; alive(pid) && waited < 15_000; waited += 100) await sleep(100);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (let waited = 0; alive(pid) && waited < 5000; waited += 100) await sleep(100);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function watch() {
  for (;;) {
    if (!fs.existsSync(dataDir)) return;
    if (!alive(jestPid)) return cleanUp();
    await sleep(POLL_MS);
  }
}

void watch();

// The process supervisor of `npm start` (README § Quick start): runs each app as a child process
// with its output prefixed by its name, restarts a child that dies with exponential back-off
// (250 ms doubling to 30 s; back to 250 ms once it has run for a minute), logging why, and stops them
// all only when asked (Ctrl-C / SIGTERM). Children get an IPC channel: an app exits when the
// channel closes (libs/platform `runService`), so a runner killed with SIGKILL leaves no app
// behind holding its port.
'use strict';
const { spawn } = require('node:child_process');
const { ExponentialBackoff, noJitterGenerator } = require('cockatiel');

// The first restart waits a moment only (a killed app is back sooner); a crash loop still backs
// off quickly to 30 s (docs/operations.md § Start-up time).
// The schedule is cockatiel's, as every back-off of the services (docs/decisions.md § Libraries
// for generic parts); `.next()` gives its first step, each step's `.next()` the one after.
const RESTART_BACKOFF = new ExponentialBackoff({
  generator: noJitterGenerator,
  initialDelay: 250,
  maxDelay: 30_000,
});
const STABLE_MS = 60_000;

/** Writes `text` line by line, each prefixed. */
function forward(stream, out, prefix) {
  let buffer = '';
  stream.on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) out.write(`${prefix}${line}\n`);
  });
}

class Supervisor {
  /**
   * @param {object} options
   * @param {Record<string, string>} options.env environment of every child
   * @param {(line: string) => void} options.log the runner's own messages
   */
  constructor({ env, log }) {
    this.env = env;
    this.log = log;
    this.children = new Map();
    this.stopping = false;
  }

  /**
   * Starts `name` running `node <script>`; restarts it whenever it exits unless stopping.
   * @param {{ onCrash?: (reason: string) => boolean, env?: Record<string, string> }} [hooks]
   *   `onCrash`: return false to not restart; `env`: settings of this child on top of the shared
   */
  start(name, script, hooks = {}) {
    const entry = this.children.get(name) ?? {
      name,
      script,
      hooks,
      backoff: RESTART_BACKOFF.next(),
    };
    this.children.set(name, entry);
    // No --enable-source-maps: it costs a fifth of the start-up's module loading (every
    // dependency's maps are read); NODE_OPTIONS=--enable-source-maps turns it on.
    const child = spawn(process.execPath, [script], {
      env: { ...this.env, ...hooks.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true, // its own process group: Ctrl-C reaches the runner, which stops it in order
    });
    const prefix = `[${name}]`.padEnd(12);
    forward(child.stdout, process.stdout, prefix);
    forward(child.stderr, process.stderr, prefix);
    entry.child = child;
    entry.startedAt = Date.now();
    this.log(`${name} started (pid ${child.pid})`);
    child.once('exit', (code, signal) => this.exited(entry, child, code, signal));
    return child;
  }

  exited(entry, child, code, signal) {
    if (this.stopping || entry.child !== child) return;
    const reason = signal ? `killed by ${signal}` : `exit code ${code}`;
    if (entry.hooks.onCrash && entry.hooks.onCrash(reason) === false) return;
    if (Date.now() - entry.startedAt > STABLE_MS) entry.backoff = RESTART_BACKOFF.next();
    const delay = entry.backoff.duration;
    entry.backoff = entry.backoff.next(undefined);
    this.log(`${entry.name} stopped unexpectedly (${reason}); restarting in ${delay / 1000} s`);
    entry.timer = setTimeout(() => {
      if (!this.stopping) this.start(entry.name, entry.script, entry.hooks);
    }, delay);
  }

  /** SIGTERM to every child; SIGKILL to those still running after `graceMs`. */
  async stopAll(graceMs = 10_000) {
    this.stopping = true;
    const running = [];
    for (const entry of this.children.values()) {
      clearTimeout(entry.timer);
      const child = entry.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      running.push(new Promise((resolve) => child.once('exit', resolve)));
      child.kill('SIGTERM');
    }
    const timer = setTimeout(() => {
      for (const entry of this.children.values()) {
        if (entry.child && entry.child.exitCode === null) entry.child.kill('SIGKILL');
      }
    }, graceMs);
    await Promise.all(running);
    clearTimeout(timer);
  }
}

module.exports = { Supervisor };

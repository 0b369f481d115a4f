// The unit tier's guard (docs/decisions.md § Unit tier): while installed, opening a connection
// (TCP, TLS, HTTP, a Unix socket: PostgreSQL, Redis, NATS, a mail or HTTP server), listening on a
// port, binding or sending on a UDP socket, or spawning a process throws where it is attempted,
// and the attempt is remembered so the test's afterEach can fail it even when the code under
// test swallowed the error (a client that retries). It patches the shared prototypes of the
// worker process: test-support/unit/setup.js installs it for every file of the unit tier, whose
// workers run nothing else.
'use strict';
const net = require('node:net');
const dgram = require('node:dgram');
const childProcess = require('node:child_process');

const STATE = Symbol.for('workspace-platform.unit-tier.guard');

/** The worker's guard state: the originals while installed, and the attempts made. */
const state = (process[STATE] ??= { originals: null, attempts: [] });

function refuse(what) {
  const message = `a unit test may not ${what} (docs/decisions.md § Unit tier)`;
  state.attempts.push(message);
  const error = new Error(message);
  error.code = 'EUNITTIER';
  return error;
}

/** `connect to host:port` / `connect to /path` from net.Socket#connect's arguments. */
function describeConnect(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === 'object') {
    if (first.path) return `connect to ${first.path}`;
    return `connect to ${first.host ?? 'localhost'}:${first.port}`;
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return `connect to ${first}`;
  return `connect to ${typeof args[1] === 'string' ? args[1] : 'localhost'}:${first}`;
}

const targets = () => [
  [net.Socket.prototype, 'connect', (...args) => describeConnect(args)],
  [net.Server.prototype, 'listen', () => 'listen on a port or socket'],
  [dgram.Socket.prototype, 'bind', () => 'bind a UDP socket'],
  [dgram.Socket.prototype, 'send', () => 'send a UDP datagram'],
  [childProcess.ChildProcess.prototype, 'spawn', (o) => `spawn a process (${o?.file})`],
  [childProcess, 'spawnSync', (file) => `spawn a process (${file})`],
  [childProcess, 'execSync', (command) => `spawn a process (${command})`],
  [childProcess, 'execFileSync', (file) => `spawn a process (${file})`],
];

/** Refuses every way out of the process until `uninstall()`; installing twice is one install. */
function install() {
  if (state.originals) return;
  state.originals = targets().map(([owner, name, what]) => {
    const original = owner[name];
    owner[name] = function refused(...args) {
      throw refuse(what(...args));
    };
    return [owner, name, original];
  });
}

/** Puts the originals back (the guard's own tests, which also run outside the unit tier). */
function uninstall() {
  if (!state.originals) return;
  for (const [owner, name, original] of state.originals) owner[name] = original;
  state.originals = null;
}

const installed = () => state.originals !== null;

/** The attempts since the last call, emptied. */
function takeAttempts() {
  return [...new Set(state.attempts.splice(0))];
}

module.exports = { install, uninstall, installed, takeAttempts };

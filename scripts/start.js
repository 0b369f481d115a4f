#!/usr/bin/env node
// `npm start`: migrates, then runs the five apps as child processes on this machine's
// PostgreSQL, Redis and NATS. Prints the gateway URL and the bootstrap Api-Key when every app
// is ready. Ctrl-C stops them all.
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { ensureDevEnv } = require('./dev-env.js');
const { migrateAll } = require('./migrate.js');
const { startMailCatcher } = require('./dev-mail-catcher.js');

const APPS = [
  { name: 'auth', portVar: 'AUTH_PORT', port: 8081 },
  { name: 'org', portVar: 'ORG_PORT', port: 8082 },
  { name: 'wallet', portVar: 'WALLET_PORT', port: 8083 },
  { name: 'analytics', portVar: 'ANALYTICS_PORT', port: 8084 },
  { name: 'gateway', portVar: 'GATEWAY_PORT', port: 8080 },
];

const env = ensureDevEnv();
migrateAll(env);

const children = [];
let stopping = false;
let mailCatcher = null;
if (!env.SMTP_URL) {
  startMailCatcher(1025, (text) =>
    process.stdout.write(
      text
        .split('\n')
        .map((l) => `[mail]      ${l}`)
        .join('\n') + '\n',
    ),
  ).then(
    (stop) => {
      mailCatcher = stop;
    },
    () => undefined,
  );
}

for (const app of APPS) {
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', join(__dirname, '..', 'apps', app.name, 'dist', 'main.js')],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const prefix = `[${app.name}]`.padEnd(12);
  const forward = (stream, out) => {
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) out.write(`${prefix}${line}\n`);
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${prefix}exited (${signal ?? code}); stopping the others\n`);
      stop(1);
    }
  });
  children.push({ app, child });
}

async function waitReady() {
  const deadline = Date.now() + 60_000;
  for (const { app } of children) {
    const port = env[app.portVar] || app.port;
    const url = `http://127.0.0.1:${port}/health/live`;
    for (;;) {
      try {
        const res = await fetch(url);
        if (res.ok) break;
      } catch {
        // not yet listening
      }
      if (Date.now() > deadline) throw new Error(`${app.name} did not answer ${url} within 60 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  if (mailCatcher) void mailCatcher();
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
    process.exit(code);
  }, 10_000);
  timer.unref();
  Promise.all(
    children.map(
      ({ child }) => child.exitCode !== null || new Promise((r) => child.once('exit', r)),
    ),
  ).then(() => process.exit(code));
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

waitReady().then(
  () => {
    const port = env.GATEWAY_PORT || 8080;
    process.stdout.write(
      `\nWorkspace platform is up.\n` +
        `  Gateway:  http://localhost:${port}   (auth_url = org_url = wallet_url = http://localhost:${port}/v1/api, analytics_url = http://localhost:${port})\n` +
        `  Api-Key:  ${env.BOOTSTRAP_API_KEY}\n` +
        (env.SMTP_URL ? '' : `  Mail:     printed here as [mail] (no SMTP_URL set)\n`) +
        `  Stop:     Ctrl-C\n\n`,
    );
  },
  (error) => {
    process.stderr.write(`${error.message}\n`);
    stop(1);
  },
);

// Whether a TCP server answers (README § Tests: which servers a test run finds).
'use strict';
const net = require('node:net');

/** Resolves true when `host:port` accepts a TCP connection within `timeoutMs`. */
function reachable(host, port, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** `{ host, port }` of a `postgres://`, `redis://` or `nats://` URL (port: the scheme's default). */
function endpointOf(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return {
    host: hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(port) || defaultPort,
  };
}

module.exports = { reachable, endpointOf };

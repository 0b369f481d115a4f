// Fails fast, with one clear line, when a server the tests need does not answer.
const net = require('node:net');

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

module.exports = async () => {
  const servers = [
    ['PostgreSQL', '127.0.0.1', 5432],
    ['Redis', '127.0.0.1', 6379],
    ['NATS', '127.0.0.1', 4222],
  ];
  const down = [];
  for (const [name, host, port] of servers)
    if (!(await reachable(host, port))) down.push(`${name} (${host}:${port})`);
  if (down.length)
    throw new Error(
      `Tests need these servers, which do not answer: ${down.join(', ')}. See README § Tests.`,
    );
};

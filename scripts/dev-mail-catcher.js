// A development mail catcher for `npm start`: when SMTP_URL is not set, this accepts the
// platform's mails on a free loopback port and prints them (activation codes, reset links,
// invitations) to the console. Not for production: it keeps nothing.
'use strict';
const net = require('node:net');

function portFree(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/**
 * Starts the catcher on 127.0.0.1:port (0: any free port) when the port is free.
 * @returns `{ port, stop }`, or null (port taken, or smtp-server not installed)
 */
async function startMailCatcher(port, write) {
  if (port !== 0 && !(await portFree(port))) return null;
  let SMTPServer;
  try {
    ({ SMTPServer } = require('smtp-server'));
  } catch {
    return null; // installed without devDependencies
  }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        const [head, ...body] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
        const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
        const text = body
          .join('\n\n')
          .replace(/=\r?\n/g, '')
          .slice(0, 2000);
        write(`To: ${to}\nSubject: ${subject}\n${text}\n`);
        callback();
      });
    },
  });
  await new Promise((resolve, reject) =>
    server.listen(port, '127.0.0.1', resolve).once('error', reject),
  );
  return {
    port: server.server.address().port,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

module.exports = { startMailCatcher };

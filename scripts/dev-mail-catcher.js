// A development mail catcher for `npm start`: when nothing listens on the default SMTP_URL
// (smtp://127.0.0.1:1025), this accepts the platform's mails and prints them (activation
// codes, reset links, invitations) to the console. Not for production: it keeps nothing.
'use strict';
const net = require('node:net');

function portFree(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** Starts the catcher on 127.0.0.1:port when the port is free; returns a stop function or null. */
async function startMailCatcher(port, write) {
  if (!(await portFree(port))) return null;
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
  return () => new Promise((resolve) => server.close(resolve));
}

module.exports = { startMailCatcher };

// A mail sink standing in for Mailpit (deploy/README.md § Stand-in base images): accepts every
// message on SMTP port 1025 (no TLS, no authentication), keeps the last 200 in memory, prints
// each one's sender, recipients and subject, and answers on HTTP port 8025 with the shapes of
// Mailpit's API that the compose check reads: GET /api/v1/messages → {total, messages:
// [{ID, From, To, Subject, Created}]}, GET /api/v1/message/{ID} → the same plus Text;
// GET /readyz → 200. `mailpit readyz` exits 0 when both ports answer.
'use strict';
const http = require('node:http');
const net = require('node:net');
const { randomUUID } = require('node:crypto');

const SMTP_PORT = 1025;
const HTTP_PORT = 8025;
const KEEP = 200;

function answers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Headers (unfolded) and body of an RFC 5322 message; quoted-printable bodies decoded. */
function parse(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, ' ');
  let body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name) =>
    (head.match(new RegExp(`^${name}:[ \\t]*(.*)$`, 'im')) ?? [])[1]?.trim() ?? '';
  if (/quoted-printable/i.test(raw)) {
    body = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
  }
  return { subject: header('Subject'), body };
}

function serve() {
  const { SMTPServer } = require('smtp-server');
  const messages = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const { subject, body } = parse(Buffer.concat(chunks).toString('utf8'));
        const message = {
          ID: randomUUID(),
          From: { Address: session.envelope.mailFrom ? session.envelope.mailFrom.address : '' },
          To: session.envelope.rcptTo.map((r) => ({ Address: r.address })),
          Subject: subject,
          Created: new Date().toISOString(),
          Text: body,
        };
        messages.unshift(message);
        messages.length = Math.min(messages.length, KEEP);
        console.log(
          `[mail] ${message.From.Address} → ${message.To.map((t) => t.Address).join(', ')}: ${subject}`,
        );
        done();
      });
    },
  });
  smtp.listen(SMTP_PORT, '0.0.0.0');
  const api = http.createServer((req, res) => {
    const send = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const url = new URL(req.url, 'http://mailpit');
    if (req.method !== 'GET') return send(405, { error: 'method not allowed' });
    if (url.pathname === '/readyz' || url.pathname === '/livez') return send(200, { ok: true });
    if (url.pathname === '/api/v1/messages') {
      return send(200, {
        total: messages.length,
        messages: messages.map(({ Text, ...summary }) => ({
          ...summary,
          Snippet: Text.slice(0, 250),
        })),
      });
    }
    const one = url.pathname.match(/^\/api\/v1\/message\/([0-9a-f-]+)$/);
    const found = one && messages.find((m) => m.ID === one[1]);
    return found ? send(200, found) : send(404, { error: 'not found' });
  });
  api.listen(HTTP_PORT, '0.0.0.0');
  const stop = () => smtp.close(() => api.close(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  console.log(`mail sink: SMTP on ${SMTP_PORT}, API on ${HTTP_PORT}`);
}

if (process.argv[2] === 'readyz') {
  Promise.all([answers(SMTP_PORT), answers(HTTP_PORT)]).then((ok) =>
    process.exit(ok.every(Boolean) ? 0 : 1),
  );
} else {
  serve();
}

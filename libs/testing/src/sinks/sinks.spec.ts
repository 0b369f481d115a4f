/** @integration loopback SMTP and HTTP servers: the test sinks themselves */
import { createTransport } from 'nodemailer';
import { HttpSink } from './http-sink.js';
import { SmtpSink } from './smtp-sink.js';
import { decodeQuotedPrintable, decodeWords, parseMessage } from './mime.js';

describe('MIME reader', () => {
  it('decodes quoted-printable soft breaks and escaped bytes', () => {
    expect(decodeQuotedPrintable('a=3Db&c=\r\nd caf=C3=A9')).toBe('a=b&cd café');
  });

  it('decodes RFC 2047 encoded words in both encodings', () => {
    expect(decodeWords('=?UTF-8?Q?caf=C3=A9_ok?= =?UTF-8?B?w6k=?=')).toBe('café oké');
  });

  it('walks a multipart message for its text and html parts', () => {
    const raw = [
      'Subject: Hi',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('plain café').toString('base64'),
      '--b1',
      'Content-Type: text/html',
      '',
      '<p>html</p>',
      '--b1--',
      '',
    ].join('\r\n');
    const parsed = parseMessage(raw);
    expect(parsed.subject).toBe('Hi');
    expect(parsed.text).toBe('plain café');
    expect(parsed.html?.trim()).toBe('<p>html</p>');
  });
});

describe('SmtpSink', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await SmtpSink.start();
  });
  afterAll(() => sink.close());

  const transport = () => createTransport({ url: sink.url });

  it('receives a nodemailer message with headers, encoded subject and long QP lines intact', async () => {
    const link = `https://app.example.com/reset-password#token=${'x'.repeat(90)}&email=a%40b.c`;
    const waiting = sink.nextMail('Ada@Example.com');
    await transport().sendMail({
      from: 'sender@example.com',
      to: 'ada@example.com',
      subject: 'Réinitialisation 123456',
      text: `Hello\n${link}\n`,
      headers: { 'X-Reset-Token': 'tok_123' },
    });
    const mail = await waiting;
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.from).toBe('sender@example.com');
    expect(mail.subject).toBe('Réinitialisation 123456');
    expect(mail.headers.get('x-reset-token')).toBe('tok_123');
    expect(mail.text).toContain(link);
    expect(sink.mailsTo('ada@example.com')).toHaveLength(1);
  });

  it('hands each message to one waiter only and times out clearly', async () => {
    await transport().sendMail({ from: 'a@b.c', to: 'once@example.com', text: 'one' });
    await expect(sink.nextMail('once@example.com')).resolves.toMatchObject({ text: 'one\n' });
    await expect(sink.nextMail('once@example.com', { timeoutMs: 100 })).rejects.toThrow(
      /timed out after 100 ms waiting for a mail to once@example.com/,
    );
  });

  it('refuses the next messages with the chosen SMTP code', async () => {
    sink.rejectNext(1, 451);
    await expect(
      transport().sendMail({ from: 'a@b.c', to: 'refused@example.com', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 451 });
    await transport().sendMail({ from: 'a@b.c', to: 'refused@example.com', text: 'y' });
    expect(sink.mailsTo('refused@example.com').map((m) => m.text)).toEqual(['y\n']);
  });
});

describe('HttpSink', () => {
  let sink: HttpSink;
  beforeAll(async () => {
    sink = await HttpSink.start();
  });
  afterAll(() => sink.close());

  const sms = (to: string, body: string) =>
    fetch(sink.url('/sms'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, body }),
    });

  it('records JSON webhook calls and serves them by recipient', async () => {
    expect((await sms('+14155550100', 'code 123456')).status).toBe(200);
    await expect(sink.nextSms('+14155550100')).resolves.toEqual({
      to: '+14155550100',
      body: 'code 123456',
    });
    expect(sink.requests[0]).toMatchObject({ method: 'POST', path: '/sms' });
  });

  it('answers the chosen failure status to the next calls without recording them', async () => {
    sink.failNext(2, 503);
    expect((await sms('+14155550101', 'a')).status).toBe(503);
    expect((await sms('+14155550101', 'b')).status).toBe(503);
    expect((await sms('+14155550101', 'c')).status).toBe(200);
    expect(sink.smsTo('+14155550101')).toEqual([{ to: '+14155550101', body: 'c' }]);
  });
});

import { randomUUID } from 'node:crypto';
import type { NotificationRequested } from '@wp/contracts';
import { EventTransport } from '@wp/messaging';
import { waitFor } from '@wp/testing';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { codeIn, newEmail } from '../support/flows.js';

/**
 * docs/architecture.md § Data ownership and events (`notify.requested`, consumed by auth) and
 * docs/architecture.md § Mail and SMS: any service asks for a mail or SMS through the event; auth
 * delivers it by SMTP or the SMS webhook, retries transient failures through JetStream redelivery,
 * and never makes an HTTP request wait for it.
 */
describe('auth: notification delivery (notify.requested → SMTP / SMS webhook)', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp();
  });
  afterAll(() => ctx.close());

  /** What another service's outbox relay does: publish the event on JetStream. */
  const publish = (payload: NotificationRequested) =>
    ctx.app.get(EventTransport).publish({
      id: randomUUID(),
      subject: 'notify.requested',
      occurredAt: new Date().toISOString(),
      payload,
    });

  it('delivers a mail requested by another service, with its subject, text and headers', async () => {
    const to = newEmail('invitee');
    await publish({
      channel: 'email',
      to,
      subject: 'You are invited to Acme',
      text: 'Join Acme: https://app.example.com/invitations#id=42',
      headers: { 'X-Invitation-Id': '42' },
      template: 'org.invitation',
    });
    const mail = await ctx.smtp.nextMail(to);
    expect(mail.subject).toBe('You are invited to Acme');
    expect(mail.text).toContain('Join Acme');
    expect(mail.headers.get('x-invitation-id')).toBe('42');
    expect(mail.from).toBe('no-reply@workspace-platform.dev');
  });

  it('delivers an SMS as POST {"to","body"} JSON to the webhook', async () => {
    await publish({
      channel: 'sms',
      to: '+14155550177',
      text: 'Your transfer code is 482913',
      template: 'wallet.transfer_code',
    });
    const request = await ctx.sms.nextRequest(
      (r) => (r.body as { to?: string }).to === '+14155550177',
    );
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/sms');
    expect(request.headers['content-type']).toContain('application/json');
    expect(request.body).toEqual({ to: '+14155550177', body: 'Your transfer code is 482913' });
  });

  it('retries a mail the SMTP server refused temporarily (451) until it goes out', async () => {
    const to = newEmail('retry');
    ctx.smtp.rejectNext(2, 451);
    await publish({ channel: 'email', to, subject: 's', text: 'eventually', template: 't' });
    const mail = await ctx.smtp.nextMail(to, { timeoutMs: 15_000 });
    expect(mail.text).toContain('eventually');
    expect(ctx.smtp.mailsTo(to)).toHaveLength(1);
  });

  it('retries an SMS while the gateway answers 503', async () => {
    ctx.sms.failNext(2, 503);
    await publish({ channel: 'sms', to: '+14155550178', text: 'persistent', template: 't' });
    expect(await ctx.sms.nextSms('+14155550178', { timeoutMs: 15_000 })).toEqual({
      to: '+14155550178',
      body: 'persistent',
    });
  });

  it('drops a mail refused permanently (550) and keeps delivering the others', async () => {
    const refused = newEmail('refused');
    const next = newEmail('next');
    ctx.smtp.rejectNext(1, 550);
    await publish({ channel: 'email', to: refused, subject: 's', text: 'never', template: 't' });
    await waitFor(() => ctx.smtp.rejectionsLeft === 0, { what: 'the refusal' });
    await publish({ channel: 'email', to: next, subject: 's', text: 'after', template: 't' });
    await ctx.smtp.nextMail(next);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(ctx.smtp.mailsTo(refused)).toHaveLength(0);
  });

  it('answers registration at once while the mail server refuses, and the code arrives later', async () => {
    const email = newEmail('slowmail');
    ctx.smtp.rejectNext(3, 421);
    const started = Date.now();
    const res = await ctx.post('/v1/api/users', {
      username: email,
      password: 'correct horse battery',
    });
    expect(res.statusCode).toBe(201);
    // The answer comes before the mail: had registration waited for delivery, the mail would
    // have arrived by now. The bound only catches a request that hangs on the refusals (their
    // retries back off over seconds); it is loose because a busy CI machine is slow.
    expect(ctx.smtp.mailsTo(email)).toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(5000);
    const mail = await ctx.smtp.nextMail(email, { timeoutMs: 20_000 });
    const userId = res.json().user_id;
    const activated = await ctx.post(`/v1/api/users/${userId}/activate/email`, {
      code: codeIn(mail.text),
    });
    expect(activated.statusCode).toBe(200);
  });
});

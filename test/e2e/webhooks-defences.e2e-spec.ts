import { SmtpSink, waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { WebhookRetention } from '../../apps/org/src/modules/webhooks/webhook-retention.js';
import { PlatformStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  RECEIVER_HOST,
  WEBHOOK_TEST_ENV,
  webhookWorld,
  type Account,
} from '../support/webhook-world.js';

/**
 * What webhooks refuse and withstand, through the gateway in both modes (docs/org.md § SSRF
 * defence, § Webhooks): metadata, loopback outside the allow-list, names resolving to private
 * addresses and redirects to them are refused and nothing reaches them, also when the address
 * only turns private at send time; a 10 s receiver does not delay another endpoint's; an
 * endpoint failing longer than the limit is disabled and its organization's OWNERs are mailed.
 */
describe('webhooks: SSRF defence, slow endpoints, disabling', () => {
  let stack: PlatformStack;
  let smtp: SmtpSink;
  const world = webhookWorld(() => stack, 'hook-defences');
  let owner: Account;
  let orgId: string;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    stack = await PlatformStack.start({
      ...WEBHOOK_TEST_ENV,
      SMTP_URL: smtp.url,
      WEBHOOK_TIMEOUT_MS: '15000',
      WEBHOOK_DISABLE_AFTER_SECONDS: '1',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,400,400,400,400,400,400,400',
    });
    owner = await world.signUp('owner');
    orgId = await world.newOrganization(owner, 'Defended');
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  it('refuses at creation: metadata, loopback outside the allow-list, a name resolving to loopback, private ranges', async () => {
    const loopback = await WebhookReceiver.start('127.0.0.1');
    try {
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        loopback.url(),
        `http://localhost:${loopback.port}/hook`,
        'http://10.0.0.1/hook',
        'http://[::1]/hook',
        'http://0.0.0.0/hook',
      ]) {
        const res = await world.createEndpoint(owner, orgId, { url, eventTypes: ['*'] });
        expect([url, res.status]).toEqual([url, 400]);
        expect(res.body.errors[0].source.pointer).toBe('/data/attributes/url');
      }
      const list = await stack.request('GET', world.endpoints(orgId), { token: owner.token });
      expect(list.body.data).toEqual([]);
      expect(loopback.received).toEqual([]);
    } finally {
      await loopback.close();
    }
  });

  it('refuses at every connection: an address that turned private after creation receives nothing', async () => {
    const loopback = await WebhookReceiver.start('127.0.0.1');
    try {
      const e = await world.endpoint(owner, orgId, {
        url: `http://${RECEIVER_HOST}:${loopback.port}/hook`,
        eventTypes: ['ping'],
      });
      // what DNS rebinding amounts to: the stored target now points at a refused address
      await stack.apps
        .get('org')!
        .get(DataSource)
        .query('UPDATE webhook_endpoint SET url = $1 WHERE id = $2', [loopback.url(), e.id]);
      await world.ping(owner, orgId, e.id);
      const attempt = await waitFor(async () => {
        const [delivery] = await world.deliveries(owner, orgId, e.id);
        return delivery?.attributes.attempts[0];
      });
      expect(attempt.responseStatus).toBeNull();
      expect(attempt.error).toMatch(/request-filtering-agent|not allowed|rejected/i);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(loopback.received).toEqual([]);
    } finally {
      await loopback.close();
    }
  });

  it('never follows a redirect, to a private address or anywhere', async () => {
    const target = await WebhookReceiver.start('127.0.0.1');
    const redirecting = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      redirecting.answerAlways(() => ({ status: 307, headers: { location: target.url() } }));
      const e = await world.endpoint(owner, orgId, {
        url: redirecting.url(),
        eventTypes: ['ping'],
      });
      await world.ping(owner, orgId, e.id);
      await world.until(() => redirecting.received.length, 2, 3000, 'a retry after the 307');
      const [delivery] = await world.deliveries(owner, orgId, e.id);
      expect(delivery.attributes.attempts[0].responseStatus).toBe(307);
      expect(delivery.attributes.status).not.toBe('succeeded');
      expect(target.received).toEqual([]);
      await stack.request('DELETE', `${world.endpoints(orgId)}/${e.id}`, { token: owner.token });
    } finally {
      await Promise.all([target.close(), redirecting.close()]);
    }
  });

  it('lets a fast endpoint receive within 2 s while a slow one (10 s answers) holds its own slots', async () => {
    const slow = await WebhookReceiver.start(RECEIVER_HOST);
    const fast = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      slow.answerAlways(() => ({ status: 200, delayMs: 10_000 }));
      const s = await world.endpoint(owner, orgId, { url: slow.url(), eventTypes: ['ping'] });
      const f = await world.endpoint(owner, orgId, { url: fast.url(), eventTypes: ['ping'] });
      for (let i = 0; i < 12; i++) await world.ping(owner, orgId, s.id); // 3× its concurrency
      await world.until(() => slow.received.length, 4, 2000, 'the slow endpoint busy');
      const started = Date.now();
      for (let i = 0; i < 10; i++) await world.ping(owner, orgId, f.id);
      await world.until(() => fast.received.length, 10, 2000, 'the fast endpoint’s 10 pings');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(slow.received.length).toBe(4); // WEBHOOK_ENDPOINT_CONCURRENCY
      await stack.request('DELETE', `${world.endpoints(orgId)}/${s.id}`, { token: owner.token });
    } finally {
      await Promise.all([slow.close(), fast.close()]);
    }
  });

  it('leases a failing endpoint’s deliveries only up to its concurrency, none queued ahead', async () => {
    const failing = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      failing.answerAlways(() => ({ status: 500, delayMs: 50 }));
      const e = await world.endpoint(owner, orgId, { url: failing.url(), eventTypes: ['ping'] });
      for (let i = 0; i < 30; i++) await world.ping(owner, orgId, e.id);
      await world.until(() => failing.received.length, 12, 10_000, 'attempts after failures');
      const db = stack.apps.get('org')!.get(DataSource);
      let most = 0;
      for (let i = 0; i < 20; i++) {
        const [row]: { n: number }[] = await db.query(
          `SELECT count(*)::int AS n FROM webhook_delivery
            WHERE endpoint_id = $1 AND status = 'delivering' AND locked_until > now()`,
          [e.id],
        );
        most = Math.max(most, row.n);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(most).toBeLessThanOrEqual(4); // WEBHOOK_ENDPOINT_CONCURRENCY
      await stack.request('DELETE', `${world.endpoints(orgId)}/${e.id}`, { token: owner.token });
    } finally {
      await failing.close();
    }
  });

  it('sweeps messages past retention whose deliveries ended, and keeps pending ones', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      const e = await world.endpoint(owner, orgId, { url: receiver.url(), eventTypes: ['ping'] });
      await world.ping(owner, orgId, e.id);
      await world.until(() => receiver.received.length, 1);
      const [done] = await waitFor(async () => {
        const rows = await world.deliveries(owner, orgId, e.id);
        return rows[0]?.attributes.status === 'succeeded' ? rows : undefined;
      });
      const db = stack.apps.get('org')!.get(DataSource);
      // a second delivery held pending (its endpoint disabled), and both messages made old
      await world.ping(owner, orgId, e.id);
      await db.query(`UPDATE webhook_endpoint SET enabled = false WHERE id = $1`, [e.id]);
      await db.query(
        `UPDATE webhook_delivery SET status = 'pending', next_attempt_at = now() + interval '1 day'
          WHERE endpoint_id = $1 AND id <> $2`,
        [e.id, done.id],
      );
      await db.query(
        `UPDATE webhook_message SET created_at = now() - interval '31 days'
          WHERE id IN (SELECT message_id FROM webhook_delivery WHERE endpoint_id = $1)`,
        [e.id],
      );
      expect(await stack.apps.get('org')!.get(WebhookRetention).sweep()).toBe(1);
      const left: { id: string; status: string }[] = await db.query(
        'SELECT id, status FROM webhook_delivery WHERE endpoint_id = $1',
        [e.id],
      );
      expect(left.map((r) => r.status)).toEqual(['pending']);
      expect(left[0].id).not.toBe(done.id);
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint failing longer than the limit and mails the OWNERs', async () => {
    const receiver = await WebhookReceiver.start(RECEIVER_HOST);
    try {
      receiver.answerAlways(() => ({ status: 500 }));
      const e = await world.endpoint(owner, orgId, { url: receiver.url(), eventTypes: ['ping'] });
      await world.ping(owner, orgId, e.id);
      const disabled = await waitFor(
        async () => {
          const res = await stack.request('GET', `${world.endpoints(orgId)}/${e.id}`, {
            token: owner.token,
          });
          return res.body.data.attributes.enabled === false ? res.body.data.attributes : undefined;
        },
        { timeoutMs: 6000, what: 'the endpoint disabled' },
      );
      expect(disabled.disabledReason).toBe('failing');
      const mail = await waitFor(
        () => smtp.mailsTo(owner.email).find((m) => m.text.includes(receiver.url())),
        {
          timeoutMs: 10_000,
          what: 'the OWNER told',
        },
      );
      expect(mail.subject).toMatch(/Webhook endpoint disabled/);
      const count = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received.length).toBe(count); // nothing more is sent
      // enabling it again clears the streak and sends what was pending
      receiver.answerAlways(() => ({ status: 204 }));
      const enabled = await stack.request('PATCH', `${world.endpoints(orgId)}/${e.id}`, {
        token: owner.token,
        body: { data: { attributes: { enabled: true } } },
      });
      expect(enabled.body.data.attributes).toMatchObject({
        enabled: true,
        disabledReason: null,
        failingSince: null,
      });
    } finally {
      await receiver.close();
    }
  });
});

import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from './webhooks.js';

describe('verifyWebhook (Standard Webhooks)', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const other = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_1', type: 'ping', data: { message: 'ping' } });
  const signed = (at = new Date()) => ({
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('evt_1', at, body),
  });

  it('answers the event for a genuine request, headers as an object or as Headers, any case', () => {
    expect(verifyWebhook(body, signed(), secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(signed()), secret).type).toBe(
      'ping',
    );
    const upper = Object.fromEntries(
      Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), v]),
    );
    expect(verifyWebhook(body, upper, secret).id).toBe('evt_1');
  });

  it('throws for another secret, a changed body, or an old timestamp', () => {
    expect(() => verifyWebhook(body, signed(), other)).toThrow();
    expect(() => verifyWebhook(`${body} `, signed(), secret)).toThrow();
    expect(() => verifyWebhook(body, signed(new Date(Date.now() - 3_600_000)), secret)).toThrow();
  });
});

import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signingSecrets, signWebhook } from './webhook-signer.js';

describe('webhook signing (Standard Webhooks; docs/org.md § Webhooks, Signing and rotation)', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'ping', data: {} });

  it('makes secrets the standardwebhooks library accepts, each different', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
  });

  it('signs so that the standardwebhooks library verifies the headers', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook('evt_1', new Date(), body, [secret]);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body + ' ', { ...headers })).toThrow();
  });

  it('signs with both secrets during an overlap, so either verifies', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const now = new Date();
    const secrets = signingSecrets(
      current,
      { secret: previous, expiresAt: new Date(now.getTime() + 1000) },
      now,
    );
    const headers = signWebhook('evt_2', now, body, secrets);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
  });

  it('drops the previous secret once its overlap ended', () => {
    const now = new Date();
    expect(signingSecrets('new', { secret: 'old', expiresAt: now }, now)).toEqual(['new']);
    expect(signingSecrets('new', null, now)).toEqual(['new']);
  });
});

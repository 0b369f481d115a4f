import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Prefix of Standard Webhooks secrets: `whsec_` + base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_';
/** Key length of a new secret, bytes (Standard Webhooks: 24 to 64). */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_<base64 of 32 random bytes>` (Standard Webhooks § Signing). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The three headers of a signed webhook request (Standard Webhooks § Headers). */
export interface WebhookHeaders {
  'webhook-id': string;
  /** Unix time in seconds, as a decimal string. */
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256>`, one per secret, space separated. */
  'webhook-signature': string;
}

/**
 * Signs a body with every given secret using the `standardwebhooks` library: one `v1,…`
 * signature per secret, space separated, so a receiver holding either the new or the previous
 * secret verifies during a rotation's overlap (docs/org.md § Webhooks, Signing and rotation).
 * `messageId` is the event id (`webhook-id`, the same on every attempt: receivers deduplicate on
 * it); `at` is the attempt's time (`webhook-timestamp`, receivers refuse old ones).
 * @throws Error when a secret is not a Standard Webhooks secret (a stored secret always is)
 */
export function signWebhook(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): WebhookHeaders {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

/** The secrets that sign now: the current one, and the previous one until its expiry. */
export function signingSecrets(
  current: string,
  previous: { secret: string; expiresAt: Date } | null,
  now: Date = new Date(),
): string[] {
  return previous && previous.expiresAt.getTime() > now.getTime()
    ? [current, previous.secret]
    : [current];
}

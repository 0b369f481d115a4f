import { z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';
import { webhookConfigFields } from './webhook.config.js';

/** Org service settings (docs/org.md § Configuration). */
export const orgConfigSchema = platformSchema.extend({
  ORG_PORT: env.port(8082),
  METRICS_PORT: env.listenPort(9082),
  ORG_HOST: env.string('0.0.0.0'),
  ORG_DATABASE_URL: databaseUrlField('org'),
  /**
   * AES-256-GCM key(s) for secrets at rest: base64 of 32 bytes, or `v2:<b64>,v1:<b64>` with
   * the current key first (docs/architecture.md § Project key pair).
   */
  SECRETS_ENCRYPTION_KEY: z
    .string({ message: 'expected base64 of 32 bytes (run `npm start` once to generate one)' })
    .min(40, 'expected base64 of 32 bytes'),
  /** Lifetime of an invitation (and of its mailed token), hours; default 7 days. */
  INVITATION_TTL_HOURS: env.int(168, 1),
  /**
   * Resend budget of one invitation (docs/org.md § Invitations): at most this many
   * `…/resend` mails in any window of `INVITATION_RESEND_WINDOW_SECONDS`; beyond it 429.
   */
  INVITATION_RESEND_LIMIT: env.int(5, 1),
  /** The sliding window of the resend budget, seconds (default one hour). */
  INVITATION_RESEND_WINDOW_SECONDS: env.int(3600, 1),
  /**
   * Page of the web client that accepts invitations. The mail links to
   * `<url>#invitation_id=<id>&token=<token>`: the token stays in the fragment, which browsers
   * never send to a server (docs/api.md § Authentication 10).
   */
  INVITATION_ACCEPT_URL: env.url('http://localhost:3000/invitations', ['http', 'https']),
  /**
   * Access token lifetime, seconds: the same variable and default as auth's (keep them equal).
   * How long org deny-lists the agent tokens of a revoked, deleted or rotated Sentinel Pass
   * (docs/org.md § Sentinel Pass).
   */
  ACCESS_TOKEN_TTL_SECONDS: env.int(900, 30),
  /**
   * DNS servers that verify organization domains (docs/org.md § Single sign-on for an
   * organization): comma-separated `host` or `host:port` (IPv4, or `[IPv6]:port`), given to
   * node:dns `Resolver#setServers`. Empty: the system's resolvers.
   */
  DNS_RESOLVER_SERVERS: env.string(''),
  ...webhookConfigFields,
});
export type OrgConfig = z.infer<typeof orgConfigSchema>;

export const ORG_CONFIG = Symbol('ORG_CONFIG');

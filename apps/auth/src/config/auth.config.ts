import { z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';
import { AesGcmEnvelope } from '@wp/security';

/** A rate limit's allowance: `0` switches the limit off (benchmarks, trusted deployments). */
const limit = (fallback: number) => env.int(fallback, 0);
/** A duration in seconds, at least one second. */
const seconds = (fallback: number) => env.int(fallback, 1);

/**
 * Auth service settings (docs/auth.md § Configuration lists every variable with its default).
 * Every variable has a local default except the keys and secrets: `JWT_PRIVATE_KEY`,
 * `JWT_PUBLIC_KEY`, `SECRETS_ENCRYPTION_KEY` and `AUTH_CODE_SECRET`.
 *
 * Lifetimes and limits follow docs/architecture.md § Lifetimes and limits
 * (docs/api.md § Authentication 9 leaves them open; docs/api.md § Limits names which limits exist).
 */
export const authConfigSchema = platformSchema.extend({
  AUTH_PORT: env.port(8081),
  METRICS_PORT: env.listenPort(9081),
  AUTH_HOST: env.string('0.0.0.0'),
  AUTH_DATABASE_URL: databaseUrlField('auth'),
  JWT_PRIVATE_KEY: env.pem('private key (P-256, PKCS#8)'),
  /** Access token lifetime, seconds (default 15 minutes). */
  ACCESS_TOKEN_TTL_SECONDS: env.int(900, 30),
  /** Refresh token family lifetime, seconds (default 30 days). */
  REFRESH_TOKEN_TTL_SECONDS: env.int(30 * 24 * 3600, 60),
  /**
   * Multi-tab grace window, seconds (docs/architecture.md § Identity and access ("Refresh token")):
   * a replay of the refresh token rotated last, within this window, answers the same new pair
   * instead of revoking.
   */
  REFRESH_GRACE_SECONDS: env.int(20, 0),
  /**
   * AES-256-GCM key(s) for secrets at rest (the grace-window pair): base64 of 32 bytes, or
   * `v2:<base64>,v1:<base64>` for rotation (first one encrypts).
   */
  SECRETS_ENCRYPTION_KEY: z
    .string({ message: 'expected base64 of 32 bytes (or v2:<base64>,v1:<base64>)' })
    .refine((value) => {
      try {
        AesGcmEnvelope.fromConfig(value);
        return true;
      } catch {
        return false;
      }
    }, 'expected base64 of 32 bytes (or v2:<base64>,v1:<base64>)'),
  /** HMAC-SHA256 key for the 6-digit activation codes stored in the database. */
  AUTH_CODE_SECRET: z.string({ message: 'expected at least 32 characters' }).min(32, {
    message: 'expected at least 32 characters',
  }),
  /** Registers this Api-Key at boot (idempotent); at least 16 characters. */
  BOOTSTRAP_API_KEY: z
    .string()
    .min(16, 'expected at least 16 characters')
    .regex(/^[A-Za-z0-9._-]+$/, 'expected letters, digits, . _ -')
    .optional(),
  /** Email registrations need a 6-digit code before login (phone always does). */
  AUTH_EMAIL_ACTIVATION_REQUIRED: env.bool(true),
  /** Concurrent password hashes (argon2id); default: the number of cores. */
  PASSWORD_HASH_CONCURRENCY: env.int(0, 0),

  /** Activation code lifetime, seconds (default 15 minutes). */
  ACTIVATION_CODE_TTL_SECONDS: seconds(900),
  /** Wrong codes accepted before a code is locked (default 5). */
  ACTIVATION_CODE_MAX_ATTEMPTS: env.int(5, 1),
  /** `resend_activation` calls per account per window (default 3 per 15 minutes). */
  ACTIVATION_RESEND_LIMIT: limit(3),
  ACTIVATION_RESEND_WINDOW_SECONDS: seconds(900),

  /** Login attempts per username per window before 429 (default 5 per 15 minutes). */
  LOGIN_RATE_LIMIT: limit(5),
  LOGIN_RATE_WINDOW_SECONDS: seconds(900),
  /** Registrations per username per window (default 5 per hour). */
  REGISTRATION_RATE_LIMIT: limit(5),
  REGISTRATION_RATE_WINDOW_SECONDS: seconds(3600),
  /** `GET /users/validate/*` per client address per window (default 30 per minute). */
  VALIDATION_RATE_LIMIT: limit(30),
  VALIDATION_RATE_WINDOW_SECONDS: seconds(60),
  /** Password reset requests per email per window (default 3 per hour). */
  PASSWORD_RESET_RATE_LIMIT: limit(3),
  PASSWORD_RESET_RATE_WINDOW_SECONDS: seconds(3600),
  /**
   * `GET /oauth/authorize` and `GET /oauth/callback` per client address per window, each route
   * counted on its own (default 30 per minute).
   */
  OIDC_SIGN_IN_RATE_LIMIT: limit(30),
  OIDC_SIGN_IN_RATE_WINDOW_SECONDS: seconds(60),
  /**
   * Passkey challenges per window: `POST /oauth/passkey/options` per client address,
   * `POST /users/me/passkeys/options` per account, counted apart (default 30 per minute).
   */
  PASSKEY_OPTIONS_RATE_LIMIT: limit(30),
  PASSKEY_OPTIONS_RATE_WINDOW_SECONDS: seconds(60),
  /** Password reset token lifetime, seconds (default 1 hour). */
  PASSWORD_RESET_TOKEN_TTL_SECONDS: seconds(3600),

  /** Issuer shown by authenticator apps for TOTP two-factor (`otpauth://` URI). */
  TOTP_ISSUER: z
    .string()
    .regex(/^[^:]{1,100}$/, 'expected 1 to 100 characters without ":"')
    .default('Workspace Platform'),
  /** Lifetime of a login's second-step challenge token, seconds (default 5 minutes). */
  MFA_CHALLENGE_TTL_SECONDS: env.int(300, 30),
  /** Wrong codes one challenge takes before it is used up (the login limit also counts them). */
  MFA_CHALLENGE_MAX_ATTEMPTS: env.int(5, 1),

  /**
   * Passkeys (docs/auth.md § Passkeys): the relying party of client applications that have none
   * of their own (`npm run cli -- apps:webauthn`). Development defaults: `localhost`.
   */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]{1,253}$/, 'expected a domain name such as example.com or localhost')
    .default('localhost'),
  /** Name authenticators show beside the account. */
  WEBAUTHN_RP_NAME: z.string().min(1).max(100).default('Workspace Platform'),
  /** Origins a ceremony may come from (`http(s)://host[:port]`, comma separated). */
  WEBAUTHN_ORIGINS: env.urls('http://localhost:3000', ['http', 'https']),
  /** Lifetime of a registration or sign-in challenge, seconds (default 5 minutes). */
  WEBAUTHN_CHALLENGE_TTL_SECONDS: env.int(300, 30),

  /** Outgoing mail server, e.g. `smtp://user:pass@mail.example.com:587` or `smtps://…`. */
  SMTP_URL: env.url('smtp://127.0.0.1:1025', ['smtp', 'smtps']),
  /** `From` of every mail auth sends. */
  MAIL_FROM: env.string('Workspace Platform <no-reply@workspace-platform.dev>'),
  /** SMS gateway webhook: receives `POST {"to","body"}` (JSON). Unset: SMS cannot be sent. */
  SMS_WEBHOOK_URL: env.optionalUrl(['http', 'https']),
  /** Timeout of one mail or SMS hand-over, milliseconds. */
  NOTIFY_SEND_TIMEOUT_MS: env.int(10_000, 100),
  /** Web front end base URL; reset links are `<PUBLIC_WEB_URL>/reset-password#token=…&email=…`. */
  PUBLIC_WEB_URL: env.url('http://localhost:3000', ['http', 'https']),

  /** Operator secrets accepted in `Admin-Access` (OIDC connections, redirect URIs). */
  ADMIN_ACCESS_TOKENS: env.list([]),
  /**
   * The platform's OIDC callback as browsers reach it (registered at every provider):
   * `<public API base>/v1/api/oauth/callback` (docs/auth.md § Sign-in with an OpenID provider).
   */
  OIDC_CALLBACK_URL: env.url('http://localhost:8080/v1/api/oauth/callback', ['http', 'https']),
  /** Accept `http:` issuers and endpoints (development and tests only; off by default). */
  OIDC_ALLOW_INSECURE_ISSUERS: env.bool(false),
  /**
   * Addresses an organization's own connection may reach although private or loopback, exact,
   * comma separated (tests and development: `127.0.0.1,::1`); every other non-public address is
   * refused (docs/auth.md § Organization single sign-on, "Outbound requests").
   */
  OIDC_ORG_ALLOWED_PRIVATE_ADDRESSES: env.string(''),
  /** Lifetime of a pending sign-in (state, nonce, PKCE verifier), seconds (≤ 10 minutes). */
  OIDC_REQUEST_TTL_SECONDS: z.coerce.number().int().min(30).max(600).default(600),
  /** Lifetime of the one-time code handed to the client application, seconds (≤ 60). */
  OIDC_CODE_TTL_SECONDS: z.coerce.number().int().min(5).max(60).default(60),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

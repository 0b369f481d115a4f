import { z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';

/**
 * Auth service settings (README § Configuration). Every variable has a local default except
 * the JWT keys, which `npm start` generates for development.
 */
export const authConfigSchema = platformSchema.extend({
  AUTH_PORT: env.port(8081),
  AUTH_HOST: env.string('0.0.0.0'),
  AUTH_DATABASE_URL: databaseUrlField('auth'),
  JWT_PRIVATE_KEY: env.pem('private key (P-256, PKCS#8)'),
  /** Access token lifetime, seconds (default 15 minutes). */
  ACCESS_TOKEN_TTL_SECONDS: env.int(900, 30),
  /** Refresh token family lifetime, seconds (default 30 days). */
  REFRESH_TOKEN_TTL_SECONDS: env.int(30 * 24 * 3600, 60),
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
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

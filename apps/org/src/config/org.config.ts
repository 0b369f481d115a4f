import { z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';

/** Org service settings (README § Configuration). */
export const orgConfigSchema = platformSchema.extend({
  ORG_PORT: env.port(8082),
  ORG_HOST: env.string('0.0.0.0'),
  ORG_DATABASE_URL: databaseUrlField('org'),
  /**
   * AES-256-GCM key(s) for secrets at rest: base64 of 32 bytes, or `v2:<b64>,v1:<b64>` with
   * the current key first (ARCHITECTURE § 4 "Project key pair").
   */
  SECRETS_ENCRYPTION_KEY: z
    .string({ message: 'expected base64 of 32 bytes (run `npm start` once to generate one)' })
    .min(40, 'expected base64 of 32 bytes'),
});
export type OrgConfig = z.infer<typeof orgConfigSchema>;

export const ORG_CONFIG = Symbol('ORG_CONFIG');

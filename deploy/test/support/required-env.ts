import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { analyticsConfigSchema } from '../../../apps/analytics/src/config/analytics.config.js';
import { authConfigSchema } from '../../../apps/auth/src/config/auth.config.js';
import { gatewayConfigSchema } from '../../../apps/gateway/src/config/gateway.config.js';
import { orgConfigSchema } from '../../../apps/org/src/config/org.config.js';
import { walletConfigSchema } from '../../../apps/wallet/src/config/wallet.config.js';

export const APPS = ['gateway', 'auth', 'org', 'wallet', 'analytics'] as const;
export type AppName = (typeof APPS)[number];
/** The apps with a database of their own (everything but the gateway). */
export const SERVICES = ['auth', 'org', 'wallet', 'analytics'] as const;

export type ConfigSchema = z.ZodObject<z.ZodRawShape>;

export const CONFIG_SCHEMAS: Record<AppName, ConfigSchema> = {
  gateway: gatewayConfigSchema,
  auth: authConfigSchema,
  org: orgConfigSchema,
  wallet: walletConfigSchema,
  analytics: analyticsConfigSchema,
};

/** Read only in embedded mode, which a deployment never runs (docs/architecture.md § Two modes). */
const EMBEDDED_ONLY = new Set(['PLATFORM_DATABASE_URL']);

/** Values a deployment must give, whatever the schemas say (deploy/README.md § Variables). */
export function fixedValues(app: AppName): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PLATFORM_MODE: 'services',
    ...(app === 'gateway' ? {} : { MIGRATE_ON_START: 'true' }),
  };
}

/** Values that satisfy one field, to get past it and find the next refusal. */
function placeholderFor(field: z.ZodType): string | undefined {
  const candidates = [
    '-----BEGIN KEY-----\nplaceholder\n-----END KEY-----',
    randomBytes(32).toString('base64'),
    'placeholder'.repeat(4),
    'https://placeholder.example',
    '1',
    'true',
  ];
  return candidates.find((value) => field.safeParse(value).success);
}

/**
 * The variables `app` must be given in a deployment, derived from its configuration schema so a
 * new required variable is caught without editing a list:
 * - every variable the schema refuses to do without when `NODE_ENV=production` (parsed over and
 *   over, filling each refused variable with a placeholder, so checks that run only once the
 *   fields are valid, like the wallet's production-only secret, are found too);
 * - every variable whose default points at this machine (`127.0.0.1`, `localhost`): database,
 *   Redis, NATS, SMTP and upstream URLs, public web addresses;
 * - `NODE_ENV`, `PLATFORM_MODE` and (services) `MIGRATE_ON_START` ({@link fixedValues}).
 */
export function requiredVariables(app: AppName): string[] {
  return [
    ...new Set([...Object.keys(fixedValues(app)), ...variablesRequiredBy(CONFIG_SCHEMAS[app])]),
  ].sort();
}

/** The schema part of {@link requiredVariables}. */
export function variablesRequiredBy(schema: ConfigSchema): string[] {
  const shape = schema.shape as Record<string, z.ZodType>;
  const required = new Set<string>();
  const env: Record<string, string> = { NODE_ENV: 'production' };
  for (let round = 0; round < 20; round++) {
    const result = schema.safeParse(env);
    if (result.success) break;
    let progressed = false;
    for (const issue of result.error.issues) {
      const key = String(issue.path[0]);
      required.add(key);
      const field = shape[key];
      const value = field ? placeholderFor(field) : undefined;
      if (value !== undefined && env[key] !== value) {
        env[key] = value;
        progressed = true;
      }
    }
    if (!progressed) throw new Error(`cannot satisfy the schema: ${result.error.message}`);
  }
  for (const [key, field] of Object.entries(shape)) {
    if (EMBEDDED_ONLY.has(key)) continue;
    const parsed = field.safeParse(undefined);
    if (parsed.success && /127\.0\.0\.1|localhost/.test(JSON.stringify(parsed.data) ?? '')) {
      required.add(key);
    }
  }
  return [...required].sort();
}

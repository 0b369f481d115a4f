import { z } from 'zod';
import {
  APPS,
  requiredVariables,
  variablesRequiredBy,
  type ConfigSchema,
} from './support/required-env.js';

// The deployment checks (k8s.spec.ts, compose.spec.ts) demand these lists; here: that the
// derivation from the zod schemas finds what it must, including refusals a schema makes only
// once every field parses (the wallet's production-only secret, the bug this caught).
describe('required production variables, derived from the config schemas', () => {
  it('finds secrets without defaults, production-only requirements and local defaults', () => {
    expect(requiredVariables('wallet')).toEqual(
      expect.arrayContaining([
        'WALLET_TRANSFER_CODE_SECRET',
        'WALLET_DATABASE_URL',
        'JWT_PUBLIC_KEY',
        'REDIS_URL',
        'NATS_URL',
        'MIGRATE_ON_START',
      ]),
    );
    expect(requiredVariables('auth')).toEqual(
      expect.arrayContaining([
        'JWT_PRIVATE_KEY',
        'SECRETS_ENCRYPTION_KEY',
        'AUTH_CODE_SECRET',
        'SMTP_URL',
        'PUBLIC_WEB_URL',
      ]),
    );
    expect(requiredVariables('gateway')).toEqual(
      expect.arrayContaining(['AUTH_UPSTREAM_URL', 'ANALYTICS_UPSTREAM_URL', 'REDIS_URL']),
    );
  });

  it('asks no app for what it does not read', () => {
    expect(requiredVariables('gateway')).not.toContain('MIGRATE_ON_START');
    for (const app of APPS) {
      expect(requiredVariables(app)).not.toContain('PLATFORM_DATABASE_URL');
      expect(requiredVariables(app).filter((v) => v.endsWith('_DATABASE_URL')).length).toBe(
        app === 'gateway' ? 0 : 1,
      );
    }
    expect(requiredVariables('org')).not.toContain('JWT_PRIVATE_KEY');
  });

  it('the derivation itself sees a requirement checked after the fields parse', () => {
    // Same shape as the wallet's: a field optional by itself, required by a refinement.
    const schema = z
      .object({ NODE_ENV: z.string(), KEY: z.string(), LATE: z.string().optional() })
      .superRefine((c, ctx) => {
        if (c.NODE_ENV === 'production' && !c.LATE)
          ctx.addIssue({ code: 'custom', path: ['LATE'], message: 'required' });
      });
    // One parse reports KEY only…
    const first = schema.safeParse({ NODE_ENV: 'production' });
    expect(first.error?.issues.map((i) => i.path[0])).toEqual(['KEY']);
    // …the derivation goes on past it and finds LATE too.
    expect(variablesRequiredBy(schema as unknown as ConfigSchema)).toEqual(['KEY', 'LATE']);
  });
});

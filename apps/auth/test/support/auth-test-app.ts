import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { TestEnvironment } from '@wp/testing';
import { createAuthApp } from '../../src/auth.app.js';
import { authConfigSchema, type AuthConfig } from '../../src/config/auth.config.js';
import { authDataSource } from '../../src/database/data-source.js';

export interface AuthTestContext {
  env: TestEnvironment;
  app: NestFastifyApplication;
  config: AuthConfig;
  apiKey: string;
  close(): Promise<void>;
}

/** Boots the auth service against a fresh database/namespace (real PostgreSQL, Redis, NATS). */
export async function startAuthTestApp(
  overrides: Record<string, string> = {},
): Promise<AuthTestContext> {
  const env = new TestEnvironment({
    AUTH_CODE_SECRET: randomBytes(32).toString('base64url'),
    ...overrides,
  });
  let app: NestFastifyApplication | undefined;
  try {
    await env.prepareDatabase('auth', authDataSource);
    const config = loadConfig(authConfigSchema, env.env);
    app = await createAuthApp(config);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (error) {
    await app?.close().catch(() => undefined);
    await env.cleanup();
    throw error;
  }
  return {
    env,
    app,
    config: loadConfig(authConfigSchema, env.env),
    apiKey: env.keys.apiKey,
    close: async () => {
      await app.close();
      await env.cleanup();
    },
  };
}

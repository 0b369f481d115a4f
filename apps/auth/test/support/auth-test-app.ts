import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { HttpSink, SmtpSink, TestEnvironment } from '@wp/testing';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
import { createAuthApp } from '../../src/auth.app.js';
import { authConfigSchema, type AuthConfig } from '../../src/config/auth.config.js';
import { authDataSource } from '../../src/database/data-source.js';

export interface AuthTestContext {
  env: TestEnvironment;
  app: NestFastifyApplication;
  config: AuthConfig;
  apiKey: string;
  /** Receives every mail the service sends (`SMTP_URL`). */
  smtp: SmtpSink;
  /** Receives every SMS webhook call (`SMS_WEBHOOK_URL`). */
  sms: HttpSink;
  /** The service's own database connection (assertions on stored state). */
  db: DataSource;
  /** `POST` with the Api-Key (and any extra headers). */
  post(url: string, payload?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** `GET` with the Api-Key (and any extra headers). */
  get(url: string, headers?: Record<string, string>): Promise<Response>;
  /** `GET`/`POST` with the Api-Key and `Authorization: Bearer <token>`. */
  bearer(token: string): Record<string, string>;
  close(): Promise<void>;
}

export type Response = LightMyRequestResponse;

/**
 * Boots the auth service against a fresh database/namespace/Redis prefix (real PostgreSQL,
 * Redis, NATS), with an SMTP sink and an SMS webhook sink of its own.
 */
export async function startAuthTestApp(
  overrides: Record<string, string> = {},
): Promise<AuthTestContext> {
  const smtp = await SmtpSink.start();
  const sms = await HttpSink.start();
  const env = new TestEnvironment({
    AUTH_CODE_SECRET: randomBytes(32).toString('base64url'),
    SMTP_URL: smtp.url,
    SMS_WEBHOOK_URL: sms.url('/sms'),
    ...overrides,
  });
  let app: NestFastifyApplication | undefined;
  try {
    await env.prepareDatabase('auth', authDataSource);
    await env.vouchFor(['org']); // no org here: the tests play it (events, deny-list entries)
    const config = loadConfig(authConfigSchema, env.env);
    app = await createAuthApp(config);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (error) {
    await app?.close().catch(() => undefined);
    await env.cleanup();
    await smtp.close();
    await sms.close();
    throw error;
  }
  const apiKey = env.keys.apiKey;
  const inject = (options: InjectOptions) => app.inject(options);
  return {
    env,
    app,
    config: loadConfig(authConfigSchema, env.env),
    apiKey,
    smtp,
    sms,
    db: app.get(DataSource),
    post: (url, payload, headers = {}) =>
      inject({
        method: 'POST',
        url,
        payload: payload as InjectOptions['payload'],
        headers: { 'api-key': apiKey, ...headers },
      }),
    get: (url, headers = {}) =>
      inject({ method: 'GET', url, headers: { 'api-key': apiKey, ...headers } }),
    bearer: (token) => ({ authorization: `Bearer ${token}` }),
    close: async () => {
      await app.close();
      await env.cleanup();
      await smtp.close();
      await sms.close();
    },
  };
}

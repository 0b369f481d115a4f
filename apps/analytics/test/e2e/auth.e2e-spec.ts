import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { ApiKeyRegistry, hashApiKey } from '@wp/security';
import { waitFor } from '@wp/testing';
import { createAnalyticsApp } from '../../src/analytics.app.js';
import { analyticsConfigSchema } from '../../src/config/analytics.config.js';
import { ProjectKeyCache } from '../../src/modules/projects/project-key-cache.js';
import { ProjectPurger } from '../../src/modules/projects/project-purger.js';
import {
  AnalyticsTestApp,
  basicAuth,
  event,
  newKeyPair,
  type TestProject,
} from '../support/analytics-test-app.js';

/**
 * docs/api.md § Authentication 7 and docs/architecture.md § Identity and access for analytics: HTTP
 * Basic with any unexpired key pair of the project, key pairs fed by `org.project.*` events, 401 in
 * Langfuse's shape for anything else; `Api-Key` optional here but validated when sent, required
 * with `ANALYTICS_REQUIRE_API_KEY=true`.
 */
describe('analytics authentication', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start({ ANALYTICS_KEY_REFRESH_MS: '200' });
    project = await ctx.createProject();
  });
  afterAll(() => ctx.close());

  const list = (auth?: string, headers: Record<string, string> = {}) =>
    ctx.request('GET', '/api/public/traces', { auth, headers });

  it('accepts the project key pair without an Api-Key header', async () => {
    const res = await list(project.basic);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ page: 1, limit: 50 });
  });

  it.each([
    ['no Authorization header', undefined, 'No authorization header'],
    ['a Bearer token', 'Bearer abc.def', 'Invalid authorization header'],
    [
      'Basic without a colon',
      `Basic ${Buffer.from('nocolon').toString('base64')}`,
      'Invalid authorization header',
    ],
    ['an unknown public key', basicAuth(newKeyPair()), 'Invalid credentials'],
  ])("answers 401 in Langfuse's shape for %s", async (_what, auth, message) => {
    const res = await list(auth);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      message,
      error: 'UnauthorizedError',
      code: 'authentication_failed',
    });
  });

  it('answers 401 for the right public key with a wrong secret', async () => {
    const res = await list(
      basicAuth({ publicKey: project.keys.publicKey, secretKey: 'sk-lf-wrong' }),
    );
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid credentials');
  });

  it('accepts every unexpired pair of a project and refuses an expired one', async () => {
    const second = newKeyPair();
    const expired = newKeyPair();
    const soon = newKeyPair();
    await ctx.setKeys(project.projectId, project.organizationId, [
      { pair: project.keys },
      { pair: second, expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      { pair: expired, expiresAt: new Date(Date.now() - 1000).toISOString() },
      { pair: soon, expiresAt: new Date(Date.now() + 1500).toISOString() },
    ]);
    await waitFor(async () => (await list(basicAuth(second))).status === 200, {
      what: 'second pair',
    });
    expect((await list(project.basic)).status).toBe(200);
    expect((await list(basicAuth(expired))).status).toBe(401);
    expect((await list(basicAuth(soon))).status).toBe(200);
    await waitFor(async () => (await list(basicAuth(soon))).status === 401, {
      timeoutMs: 3000,
      what: 'the pair to expire',
    });
  });

  it('replaces the key set on keys.changed and ignores an older version delivered late', async () => {
    const p = await ctx.createProject();
    const rotated = newKeyPair();
    await ctx.setKeys(p.projectId, p.organizationId, [{ pair: rotated }]); // version 2
    await waitFor(async () => (await list(basicAuth(rotated))).status === 200, {
      what: 'rotated pair',
    });
    expect((await list(p.basic)).status).toBe(401);

    await ctx.publish('org.project.keys.changed', {
      organizationId: p.organizationId,
      projectId: p.projectId,
      version: 1,
      keys: [
        {
          id: 'old',
          publicKey: p.keys.publicKey,
          secretKeySha256: 'a'.repeat(64),
          expiresAt: null,
        },
      ],
    });
    await new Promise((r) => setTimeout(r, 500));
    expect((await list(basicAuth(rotated))).status).toBe(200);
  });

  it("refuses a deleted project's pairs and purges its data", async () => {
    const p = await ctx.createProject();
    const traceId = randomUUID();
    await ctx.request('POST', '/api/public/ingestion', {
      auth: p.basic,
      body: {
        batch: [
          event('trace-create', { id: traceId }),
          event('span-create', { id: randomUUID(), traceId }),
        ],
      },
    });
    expect(
      (await ctx.request('GET', `/api/public/traces/${traceId}`, { auth: p.basic })).status,
    ).toBe(200);
    await ctx.publish('org.project.deleted', {
      organizationId: p.organizationId,
      projectId: p.projectId,
    });
    await waitFor(async () => (await list(p.basic)).status === 401, {
      what: 'deleted project refused',
    });

    expect(await ctx.app.get(ProjectPurger).runOnce()).toBeGreaterThanOrEqual(2);
    const rows: { n: number }[] = await ctx.dataSource.query(
      `SELECT (SELECT count(*) FROM trace WHERE project_id = $1)::int
            + (SELECT count(*) FROM observation WHERE project_id = $1)::int AS n`,
      [p.projectId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('validates an Api-Key when one is sent (403 unknown, 200 registered)', async () => {
    const bad = await list(project.basic, { 'api-key': 'wpk_unknown' });
    expect(bad.status).toBe(403);
    expect(bad.body).toMatchObject({ error: 'ForbiddenError', code: 'access_denied' });
    const key = `wpk_${randomUUID()}`;
    await ctx.app.get(ApiKeyRegistry).add(hashApiKey(key), 'test-app');
    expect((await list(project.basic, { 'api-key': key })).status).toBe(200);
  });

  it("answers errors outside the controllers in Langfuse's shape too (unknown path, oversized body)", async () => {
    const missing = await ctx.request('GET', '/api/public/nothing-here', { auth: project.basic });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      error: 'LangfuseNotFoundError',
      code: 'resource_not_found',
    });
    const huge = await ctx.request('POST', '/api/public/ingestion', {
      auth: project.basic,
      body: JSON.stringify({ batch: [], pad: 'x'.repeat(6 * 1_048_576) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: 'PayloadTooLargeError', code: 'payload_too_large' });
  });

  it('lets a second replica learn key pairs consumed by the first (incremental re-read)', async () => {
    const replica: NestFastifyApplication = await createAnalyticsApp(
      loadConfig(analyticsConfigSchema, ctx.env.env),
    );
    await replica.init();
    try {
      const p = await ctx.createProject();
      const cache = replica.get(ProjectKeyCache);
      await waitFor(() => cache.verify(p.keys.publicKey, p.keys.secretKey) === p.projectId, {
        timeoutMs: 2000,
        what: 'the replica to know the new pair',
      });
      expect(cache.verify(p.keys.publicKey, 'sk-lf-wrong')).toBeNull();
    } finally {
      await replica.close();
    }
  });
});

describe('analytics with ANALYTICS_REQUIRE_API_KEY=true', () => {
  let ctx: AnalyticsTestApp;
  let project: TestProject;

  beforeAll(async () => {
    ctx = await AnalyticsTestApp.start({ ANALYTICS_REQUIRE_API_KEY: 'true' });
    project = await ctx.createProject();
  });
  afterAll(() => ctx.close());

  it('refuses a request without Api-Key even with a valid key pair, and accepts it with one', async () => {
    const without = await ctx.request('GET', '/api/public/traces', { auth: project.basic });
    expect(without.status).toBe(403);
    expect(without.body).toMatchObject({
      message: 'The Api-Key header is required.',
      code: 'access_denied',
    });
    const key = `wpk_${randomUUID()}`;
    await ctx.app.get(ApiKeyRegistry).add(hashApiKey(key), 'test-app');
    const withKey = await ctx.request('GET', '/api/public/traces', {
      auth: project.basic,
      headers: { 'api-key': key },
    });
    expect(withKey.status).toBe(200);
  });
});

import { MetricsServer } from '@wp/observability';
import Fastify, { type FastifyInstance } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { ApiKeyRegistry, hashApiKey } from '@wp/security';
import { TestEnvironment } from '@wp/testing';
import { gatewayConfigSchema } from '../src/config/gateway.config.js';
import { createGatewayApp } from '../src/gateway.app.js';

/**
 * The gateway in front of stand-in upstreams (real HTTP servers that echo what they receive):
 * routing by prefix, Api-Key pre-check, request ids, client address, CORS, body limit, rate
 * limit, and JSON:API answers when an upstream is down or slow.
 */
describe('gateway', () => {
  const env = new TestEnvironment();
  const apiKey = 'wpk_gateway_test_key_0123456789';
  let upstream: FastifyInstance;
  let gateway: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    // The upstreams are echo stand-ins, not the services: their answers are not the API's
    // (docs/api-documentation.md § Contract test).
    (globalThis as Record<string, unknown>)['__OPENAPI_CONTRACT_SKIP__'] = true;
    await env.preparePlatform(); // embedded mode: the API keys' table
    await env.vouchFor(['auth']); // the registry is whole: other keys are unknown

    upstream = Fastify();
    upstream.all('/*', async (request, reply) => {
      if (request.url.startsWith('/v1/api/wallets/slow'))
        await new Promise((r) => setTimeout(r, 1500));
      if (request.url === '/v1/api/organizations/etag') {
        // A conditional GET as org answers it (libs/http ETagInterceptor).
        void reply.header('etag', 'W/"rev-1"');
        if (request.headers['if-none-match'] === 'W/"rev-1"') return reply.code(304).send();
        return reply.send({ data: { type: 'organization', id: 'etag' } });
      }
      return reply.send({
        url: request.url,
        method: request.method,
        requestId: request.headers['x-request-id'],
        forwardedFor: request.headers['x-forwarded-for'],
        apiKey: request.headers['api-key'] ?? null,
      });
    });
    await upstream.listen({ port: 0, host: '127.0.0.1' });
    const up = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;

    const config = loadConfig(gatewayConfigSchema, {
      ...env.env,
      AUTH_UPSTREAM_URL: up,
      ORG_UPSTREAM_URL: up,
      WALLET_UPSTREAM_URL: up,
      ANALYTICS_UPSTREAM_URL: 'http://127.0.0.1:1', // nothing listens: "down"
      GATEWAY_UPSTREAM_TIMEOUT_MS: '500',
      GATEWAY_RATE_LIMIT: '40',
      HTTP_BODY_LIMIT_BYTES: '2048',
      CORS_ORIGINS: 'https://app.example.com',
    });
    gateway = await createGatewayApp(config);
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(gateway.getHttpServer().address() as { port: number }).port}`;
    // Registered as an operator would (Redis `api_keys` or the platform database's `api_key`).
    await gateway.get(ApiKeyRegistry).add(hashApiKey(apiKey), 'app-1');
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await env.cleanup();
  });

  const json = (res: Response): Promise<any> => res.json();
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { 'api-key': apiKey, ...headers } });

  it('forwards by prefix with the path unchanged, a request id and the client address', async () => {
    const res = await get('/v1/api/organizations/7/projects?sort=name', {
      'x-request-id': 'abc-123',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    const body = await json(res);
    expect(body).toMatchObject({
      url: '/v1/api/organizations/7/projects?sort=name',
      requestId: 'abc-123',
    });
    expect(body.forwardedFor).toBe('127.0.0.1');
  });

  it('replaces a client-supplied X-Forwarded-For (the gateway is the edge)', async () => {
    const res = await get('/v1/api/users/validate/email', { 'x-forwarded-for': '203.0.113.9' });
    expect((await json(res)).forwardedFor).toBe('127.0.0.1');
  });

  it('refuses a missing or unknown Api-Key with a JSON:API 403 before any upstream hop', async () => {
    const missing = await fetch(`${base}/v1/api/wallets`);
    expect(missing.status).toBe(403);
    expect((await json(missing)).errors[0]).toMatchObject({
      status: '403',
      code: 'API_KEY_MISSING',
    });
    const unknown = await get('/v1/api/wallets', { 'api-key': 'nope' });
    expect(unknown.status).toBe(403);
    expect((await json(unknown)).errors[0].code).toBe('API_KEY_INVALID');
  });

  it('passes ETag, If-None-Match and an empty 304 through unchanged (GET and HEAD)', async () => {
    const first = await get('/v1/api/organizations/etag');
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('W/"rev-1"');
    const again = await get('/v1/api/organizations/etag', { 'if-none-match': 'W/"rev-1"' });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe('W/"rev-1"');
    expect(await again.text()).toBe('');
    const head = await fetch(`${base}/v1/api/organizations/etag`, {
      method: 'HEAD',
      headers: { 'api-key': apiKey, 'if-none-match': 'W/"rev-1"' },
    });
    expect(head.status).toBe(304);
    expect(head.headers.get('etag')).toBe('W/"rev-1"');
    const stale = await get('/v1/api/organizations/etag', { 'if-none-match': 'W/"rev-0"' });
    expect(stale.status).toBe(200);
    expect((await json(stale)).data.id).toBe('etag');
  });

  it('serves the JWKS without an Api-Key', async () => {
    const res = await fetch(`${base}/v1/api/oauth/jwks.json`);
    expect(res.status).toBe(200);
  });

  it('answers 504 in JSON:API when an upstream is too slow', async () => {
    const res = await get('/v1/api/wallets/slow');
    expect(res.status).toBe(504);
    expect((await json(res)).errors[0].code).toBe('GATEWAY_TIMEOUT');
  });

  it('answers 503 in JSON:API when an upstream is down, with no Api-Key needed on analytics', async () => {
    const res = await fetch(`${base}/api/public/traces`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await json(res)).errors[0].code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('still validates an Api-Key sent on analytics paths', async () => {
    const res = await fetch(`${base}/api/public/traces`, { headers: { 'api-key': 'nope' } });
    expect(res.status).toBe(403);
  });

  it('refuses a body announced larger than the limit with 413', async () => {
    const res = await fetch(`${base}/v1/api/users`, {
      method: 'POST',
      headers: { 'api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(4096) }),
    });
    expect(res.status).toBe(413);
    expect((await json(res)).errors[0].status).toBe('413');
  });

  it('answers CORS preflights for configured origins only', async () => {
    const allowed = await fetch(`${base}/v1/api/organizations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('Api-Key');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    const simple = await fetch(`${base}/v1/api/organizations/etag`, {
      headers: { origin: 'https://app.example.com', 'api-key': apiKey },
    });
    expect(simple.headers.get('access-control-expose-headers')).toContain('ETag');
    const other = await fetch(`${base}/v1/api/organizations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('has its own health, and metrics on their own port, not the public one', async () => {
    const live = await fetch(`${base}/health/live`);
    expect(live.status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`${gateway.get(MetricsServer).url}/metrics`)).text();
    expect(metrics).toContain('http_request_duration_seconds');
  });

  it('limits requests per address and answers 429 with Retry-After in JSON:API', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await get('/v1/api/organizations')).status);
    expect(statuses).toContain(429);
    const res = await get('/v1/api/organizations');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = await json(res);
    expect(body.errors[0].code).toBe('RATE_LIMITED');
    // The JSON:API body alone, not Fastify's `statusCode` beside it.
    expect(Object.keys(body)).toEqual(['errors']);
  });
});

import { MetricsServer } from '@wp/observability';
import { testPlatformMode } from '@wp/testing';
import { createPublicKey } from 'node:crypto';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';

describe('auth: registration and login without activation (foundation path)', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { 'api-key': ctx.apiKey, ...headers },
    });

  it('registers by email and answers 200 with the session envelope', async () => {
    const res = await post('/v1/api/users', {
      username: 'Ada@Example.com',
      password: 'correct horse',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.type).toBe('session');
    expect(body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.attributes).toMatchObject({
      email: 'Ada@Example.com', // as typed (docs/auth.md § Usernames)
      firstName: '',
      lastName: '',
    });
    expect(body.data.attributes.accessToken).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(body.data.attributes.refreshToken).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('logs in with the same credentials, whatever the email case', async () => {
    const res = await post('/v1/api/oauth/token', {
      username: 'ADA@example.com',
      password: 'correct horse',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes.email).toBe('Ada@Example.com');
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const wrong = await post('/v1/api/oauth/token', {
      username: 'ada@example.com',
      password: 'nope-nope',
    });
    const unknown = await post('/v1/api/oauth/token', {
      username: 'bob@example.com',
      password: 'nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().errors[0].code).toBe('INVALID_CREDENTIALS');
  });

  it('still requires activation for phone registrations (201, code by SMS)', async () => {
    const res = await post('/v1/api/users', {
      username: '+14155550123',
      password: 'correct horse',
      method: 'phone',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 201, activationRequired: true });
    expect((await ctx.sms.nextSms('+14155550123')).body).toMatch(/\b\d{6}\b/);
  });

  it('refuses a duplicate username with 409 USERNAME_TAKEN', async () => {
    const res = await post('/v1/api/users', {
      username: 'ada@example.com',
      password: 'another one',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0].code).toBe('USERNAME_TAKEN');
  });

  it('rejects bad bodies with 400 and a pointer per field', async () => {
    const res = await post('/v1/api/users', { username: 42, password: 'short' });
    expect(res.statusCode).toBe(400);
    const pointers = res
      .json()
      .errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/username', '/password']));
  });

  it('rejects malformed JSON with a JSON:API 400', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/api/users',
      payload: '{"username": ',
      headers: { 'api-key': ctx.apiKey, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].status).toBe('400');
  });

  it('requires the Api-Key: 403 when missing or unknown', async () => {
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/v1/api/oauth/token',
      payload: {},
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().errors[0].code).toBe('API_KEY_MISSING');
    const unknown = await post('/v1/api/oauth/token', {}, { 'api-key': 'not-a-key-we-know' });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().errors[0].code).toBe('API_KEY_INVALID');
  });

  it('answers unknown routes with a JSON:API 404 and echoes X-Request-Id', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v1/api/nowhere',
      headers: { 'api-key': ctx.apiKey, 'x-request-id': 'req-123' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.json().errors[0].code).toBe('NOT_FOUND');
  });

  it('publishes the verification key as a JWKS', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/api/oauth/jwks.json' });
    expect(res.statusCode).toBe(200);
    const [jwk] = res.json().keys;
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(createPublicKey({ key: jwk, format: 'jwk' }).asymmetricKeyType).toBe('ec');
  });

  it('answers health and metrics without credentials', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    // Services mode checks Redis and NATS too; embedded mode has neither (a bare machine's run).
    const info = ready.json().info;
    expect(info).toMatchObject({ database: { status: 'up' } });
    if (testPlatformMode() === 'services') {
      expect(info).toMatchObject({ redis: { status: 'up' }, nats: { status: 'up' } });
    } else {
      expect(info).not.toHaveProperty('redis');
      expect(info).not.toHaveProperty('nats');
    }
    // Metrics have a listener of their own (docs/operations.md § Metrics).
    const metrics = await fetch(`${ctx.app.get(MetricsServer).url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
  });
});

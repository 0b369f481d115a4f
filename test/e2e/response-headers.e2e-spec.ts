import { waitFor } from '@wp/testing';
import { PlatformStack, type ServiceName } from '../support/stack.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Response headers (docs/operations.md § Response headers): `Cache-Control: no-store` and
 * `Pragma: no-cache` on every answer that carries a token or a secret shown once (RFC 6749
 * § 5.1); `X-Content-Type-Options: nosniff` on every answer of every process;
 * `Strict-Transport-Security` when configured (here it is; off by default, error-bodies test).
 */
describe('response headers', () => {
  let stack: PlatformStack;
  let token: string;
  let orgId: string;
  let projectId: string;

  beforeAll(async () => {
    stack = await PlatformStack.start({ STRICT_TRANSPORT_SECURITY: HSTS });
    const user = await stack.request('POST', '/v1/api/users', {
      body: { username: 'headers@example.com', password: 'a long password' },
    });
    token = user.body.data.attributes.accessToken;
    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Headers' } } },
    });
    orgId = org.body.data.id;
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token,
      body: { data: { type: 'project', attributes: { name: 'Keys' } } },
    });
    projectId = project.body.data.id;
  });
  afterAll(() => stack.close());

  const expectNoStore = (res: { status: number; headers: Headers }, what: string) => {
    expect({
      what,
      cacheControl: res.headers.get('cache-control'),
      pragma: res.headers.get('pragma'),
    }).toEqual({ what, cacheControl: 'no-store', pragma: 'no-cache' });
  };

  it('token and session answers are never stored', async () => {
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: 'headers-2@example.com', password: 'a long password' },
    });
    expect(registered.body.data.attributes.accessToken).toBeDefined();
    expectNoStore(registered, 'register (session)');

    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'headers-2@example.com', password: 'a long password' },
    });
    expect(login.status).toBe(200);
    expectNoStore(login, 'login');
    const refreshed = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: login.body.data.attributes.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expectNoStore(refreshed, 'refresh');
    const refused = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'headers-2@example.com', password: 'not the password' },
    });
    expect(refused.status).toBe(401);
    expectNoStore(refused, 'a refused login');

    const enrolment = await stack.request('POST', '/v1/api/users/me/two_factor', {
      token: login.body.data.attributes.accessToken,
      body: { password: 'a long password' },
    });
    expect(enrolment.status).toBe(201);
    expectNoStore(enrolment, 'two-factor enrolment (secret, QR code)');
  });

  it('secrets shown once are never stored: key pairs, Sentinel Pass keys, agent tokens', async () => {
    const P = `/v1/api/organizations/${orgId}/projects/${projectId}`;
    const pair = await stack.request('POST', `${P}/api_keys`, {
      token,
      body: { data: { attributes: { note: 'ci' } } },
    });
    expect(pair.status).toBe(201);
    expect(pair.body.meta.secretKey).toMatch(/^sk_/);
    expectNoStore(pair, 'a new key pair');
    const secretShown = await stack.request('GET', `${P}?secret=true`, { token });
    expect(secretShown.body.meta.secrets.secretKey).toMatch(/^sk_/);
    expectNoStore(secretShown, 'a project with secret=true');

    const pass = await stack.request('POST', `${P}/sentinel_passes`, {
      token,
      body: { sentinelPass: { title: 'agent' } },
    });
    expect(pass.status).toBe(201);
    expectNoStore(pass, 'a new Sentinel Pass');
    const rotated = await stack.request(
      'POST',
      `${P}/sentinel_passes/${pass.body.data.id}/rotate_key`,
      { token },
    );
    expect(rotated.status).toBe(200);
    expectNoStore(rotated, 'a rotated Sentinel Pass key');
    const agent = await waitFor(
      async () => {
        const res = await stack.request('POST', '/v1/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: pass.body.data.id,
            client_secret: rotated.body.meta.secret,
          },
        });
        return res.status === 200 && res;
      },
      { timeoutMs: 10_000, what: 'the agent token exchange' },
    );
    expectNoStore(agent, 'an agent token');

    // An answer without credentials is left to ordinary HTTP caching rules.
    const list = await stack.request('GET', '/v1/api/organizations', { token });
    expect(list.headers.get('pragma')).toBeNull();
    expect(list.headers.get('cache-control')).not.toBe('no-store');
  });

  it('every answer of every process says nosniff, and HSTS when configured', async () => {
    const direct = (name: ServiceName) => `http://127.0.0.1:${stack.ports.get(name)}`;
    const answers = [
      await stack.request('GET', '/v1/api/organizations', { token }),
      await stack.request('GET', '/v1/api/nothing-here'),
      await stack.request('GET', '/v1/api/organizations', { headers: { 'api-key': '' } }),
      await stack.request('GET', '/v1/api/organizations/..%2Fx'),
      await stack.request('GET', '/v1/api/oauth/jwks.json'),
      await stack.request('GET', '/api/public/traces'),
      await stack.request('GET', '/health/ready'),
      await stack.request('GET', '/docs/openapi.json'),
      ...(await Promise.all(
        (['auth', 'org', 'wallet', 'analytics'] as const).flatMap((name) => [
          stack.request('GET', '/health/live', { baseUrl: direct(name) }),
          stack.request('GET', name === 'analytics' ? '/api/public/unknown' : '/v1/api/unknown', {
            baseUrl: direct(name),
          }),
        ]),
      )),
    ];
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toBe(HSTS);
    }
  });
});

import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * The first real path (docs/architecture.md § Routing at the gateway) through the gateway, over
 * real PostgreSQL, Redis and NATS: register → log in → create an organization → its wallet appears,
 * exactly once, also when the wallet service restarts in between.
 */
describe('first real path through the gateway', () => {
  let stack: PlatformStack;
  let token: string;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack.close());

  const organizationWallets = async (organizationId: string) => {
    const res = await stack.request('GET', '/v1/api/wallets?entity_type=organization', { token });
    expect(res.status).toBe(200);
    return (res.body.data as { entity_id: string }[]).filter((w) => w.entity_id === organizationId);
  };

  it('registers and logs in a user (session envelope of the contract)', async () => {
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: 'founder@example.com', password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'founder@example.com', password: 'a long password' },
    });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ type: 'session', id: registered.body.data.id });
    expect(login.body.data.attributes.email).toBe('founder@example.com');
    token = login.body.data.attributes.accessToken;
  });

  it('creates an organization (200, envelope) and its operating wallet appears within 2 s', async () => {
    const created = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Acme' } } },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ type: 'organization', attributes: { name: 'Acme' } });
    expect(typeof created.body.data.id).toBe('string');
    expect(created.body.meta.can.organization.manageSettings).toBe(true);

    const started = Date.now();
    const [wallet] = await waitFor(
      async () => {
        const wallets = await organizationWallets(created.body.data.id);
        return wallets.length > 0 && wallets;
      },
      { timeoutMs: 2000, what: 'the organization wallet' },
    );
    expect(Date.now() - started).toBeLessThanOrEqual(2000);
    expect(wallet).toMatchObject({
      entity_type: 'organization',
      entity_id: created.body.data.id,
      entity_name: 'Acme',
      purpose: 'operating',
      currency: 'CREDITS',
    });
    expect((wallet as unknown as { address_hash: string }).address_hash).toMatch(
      /^0x[0-9a-f]{40}$/,
    );
  });

  it('does not lose or duplicate the wallet when the wallet service restarts in between', async () => {
    await stack.stopService('wallet');
    const created = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Made while wallet was down' } } },
    });
    expect(created.status).toBe(200);
    const down = await stack.request('GET', '/v1/api/wallets', { token });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(down.body.errors[0].code).toBe('UPSTREAM_UNAVAILABLE');

    await stack.startService('wallet');
    await waitFor(async () => (await organizationWallets(created.body.data.id)).length > 0, {
      timeoutMs: 5000,
      what: 'the wallet after restart',
    });
    await new Promise((resolve) => setTimeout(resolve, 500)); // room for a duplicate to show up
    expect(await organizationWallets(created.body.data.id)).toHaveLength(1);
  });

  it('refuses requests without an Api-Key at the gateway with a JSON:API 403', async () => {
    const res = await stack.request('GET', '/v1/api/organizations', { headers: { 'api-key': '' } });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('API_KEY_MISSING');
  });

  it('answers without a token with 401 and carries the request id through', async () => {
    const res = await stack.request('GET', '/v1/api/organizations', {
      headers: { 'x-request-id': 'trace-me-1' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe('trace-me-1');
  });
  it('publishes the merged API documentation at /docs (no Api-Key needed)', async () => {
    const page = await fetch(`${stack.gatewayUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/docs/assets/swagger-ui-bundle.js');
    const bundle = await fetch(`${stack.gatewayUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);

    const res = await fetch(`${stack.gatewayUrl}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { info: object; paths: Record<string, object> };
    expect(document.info).not.toHaveProperty('x-unavailable-services');
    expect(document.paths).toHaveProperty(
      ['/v1/api/oauth/token', 'post', 'tags', 0],
      'Accounts and sessions',
    );
    expect(document.paths).toHaveProperty(['/v1/api/oauth/token', 'post', 'x-service'], 'auth');
    expect(Object.keys(document.paths['/v1/api/organizations'] ?? {}).sort()).toEqual([
      'get',
      'post',
    ]);
    expect(document.paths).toHaveProperty(
      ['/v1/api/wallets/transact', 'post', 'tags', 0],
      'Wallets',
    );
    expect(document.paths).toHaveProperty(
      ['/v1/api/wallets/transact', 'post', 'x-service'],
      'wallet',
    );
    expect(document.paths).toHaveProperty(['/api/public/ingestion', 'post']);
    expect(Object.keys(document.paths).some((path) => path.startsWith('/health'))).toBe(false);
  });
});

import { waitFor } from '@wp/testing';
import { Secret, TOTP } from 'otpauth';
import { PlatformStack } from '../support/stack.js';

const PASSWORD = 'a long password';

/**
 * Account security beyond the contract, through the gateway over real PostgreSQL, Redis and
 * NATS (docs/auth.md § Two-factor authentication, § Session management; docs/org.md § Audit
 * log): two-factor login, ending sessions everywhere, and the organization audit log fed by
 * every service — with the contract's behaviour unchanged for users who use none of it.
 */
describe('account security through the gateway', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack.close());

  const signUp = async (email: string) => {
    const res = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    return { id: res.body.data.id as string, email, token: res.body.data.attributes.accessToken };
  };
  const login = (username: string, agent = 'test-agent') =>
    stack.request('POST', '/v1/api/oauth/token', {
      body: { username, password: PASSWORD },
      headers: { 'user-agent': agent },
    });
  const sidOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid as string;

  it('leaves login and refresh exactly as the contract says for users without two-factor', async () => {
    const user = await signUp('plain@example.com');
    const res = await login(user.email);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data.attributes).sort()).toEqual(
      [
        'accessToken',
        'email',
        'expiresIn',
        'firstName',
        'lastName',
        'refreshToken',
        'tokenType',
      ].sort(),
    );
    const refreshed = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: res.body.data.attributes.refreshToken },
    });
    expect(refreshed.status).toBe(200);
  });

  it('turns two-factor on, logs in with a code, refuses the code replayed and lets a recovery code in once', async () => {
    const user = await signUp('twofactor@example.com');
    const started = await stack.request('POST', '/v1/api/users/me/two_factor', {
      token: user.token,
      body: { password: PASSWORD },
    });
    expect(started.status).toBe(201);
    expect(started.body.data.attributes.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const totp = new TOTP({ secret: Secret.fromBase32(started.body.data.attributes.secret) });
    const step = TOTP.counter();
    const codeAt = (s: number) => totp.generate({ timestamp: s * 30_000 });
    const confirmed = await stack.request('POST', '/v1/api/users/me/two_factor/confirm', {
      token: user.token,
      body: { code: codeAt(step) },
    });
    expect(confirmed.status).toBe(200);
    const recoveryCodes = confirmed.body.data.attributes.recoveryCodes as string[];

    const passwordStep = async () => {
      const res = await login(user.email);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('TWO_FACTOR_REQUIRED');
      return res.body.errors[0].meta.challenge_token as string;
    };
    const secondStep = (body: object) => stack.request('POST', '/v1/api/oauth/token/mfa', { body });

    const code = codeAt(step + 1);
    const ok = await secondStep({ challenge_token: await passwordStep(), code });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ id: user.id, type: 'session' });
    const orgs = await stack.request('GET', '/v1/api/organizations', {
      token: ok.body.data.attributes.accessToken,
    });
    expect(orgs.status).toBe(200);

    const replay = await secondStep({ challenge_token: await passwordStep(), code });
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].code).toBe('INVALID_TWO_FACTOR_CODE');

    const recovered = await secondStep({
      challenge_token: await passwordStep(),
      recovery_code: recoveryCodes[3],
    });
    expect(recovered.status).toBe(200);
    const spent = await secondStep({
      challenge_token: await passwordStep(),
      recovery_code: recoveryCodes[3],
    });
    expect(spent.status).toBe(401);
  });

  it('ends a session from the sessions list: its access token is refused by another service within 1 s', async () => {
    const user = await signUp('sessions@example.com');
    const laptop = (await login(user.email, 'Laptop')).body.data.attributes;
    const phone = (await login(user.email, 'Phone')).body.data.attributes;
    // The org service has seen (and remembered) the phone's token as not revoked.
    const before = await stack.request('GET', '/v1/api/organizations', {
      token: phone.accessToken,
    });
    expect(before.status).toBe(200);

    const list = await stack.request('GET', '/v1/api/users/me/sessions', {
      token: laptop.accessToken,
    });
    expect(list.status).toBe(200);
    const phoneSession = list.body.data.find(
      (s: { id: string }) => s.id === sidOf(phone.accessToken),
    );
    expect(phoneSession.attributes).toMatchObject({ userAgent: 'Phone', current: false });

    const ended = await stack.request('DELETE', `/v1/api/users/me/sessions/${phoneSession.id}`, {
      token: laptop.accessToken,
    });
    expect(ended.status).toBe(204);
    const endedAt = Date.now();
    const refused = await waitFor(
      async () => {
        const res = await stack.request('GET', '/v1/api/organizations', {
          token: phone.accessToken,
        });
        return res.status === 401 && res;
      },
      { timeoutMs: 1000, intervalMs: 20, what: 'the ended session refused by org' },
    );
    expect(Date.now() - endedAt).toBeLessThan(1000);
    expect(refused.body.errors[0].code).toBe('TOKEN_REVOKED');
    const refresh = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: phone.refreshToken },
    });
    expect(refresh.status).toBe(401);
    const still = await stack.request('GET', '/v1/api/organizations', {
      token: laptop.accessToken,
    });
    expect(still.status).toBe(200);
  });

  it('shows in the audit log, within 2 s, actions made on auth and on the wallet service, and hides it from other tenants', async () => {
    const owner = await signUp('audit-owner@example.com');
    const member = await signUp('audit-member@example.com');
    const other = await signUp('audit-other@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Audited Co' } } },
    });
    const orgId = org.body.data.id as string;
    const added = await stack.request('POST', `/v1/api/organizations/${orgId}/add_user`, {
      token: owner.token,
      body: { data: { type: 'users', attributes: { email: member.email, role: 'MEMBER' } } },
    });
    expect(added.status).toBe(201);
    const log = (query: string, token = owner.token) =>
      stack.request('GET', `/v1/api/organizations/${orgId}/audit_log${query}`, { token });

    // On auth: the member changes their password.
    const changed = await stack.request('POST', '/v1/api/users/password/change', {
      token: member.token,
      headers: { 'x-request-id': 'pw-change-1' },
      body: { new_password: 'another long password' },
    });
    expect(changed.status).toBe(200);
    const changedAt = Date.now();
    const entry = await waitFor(
      async () => (await log('?action=user.password_changed')).body.data[0],
      { timeoutMs: 2000, intervalMs: 25, what: 'the password change in the audit log' },
    );
    expect(Date.now() - changedAt).toBeLessThan(2000);
    expect(entry.attributes).toMatchObject({
      actor: { type: 'user', id: member.id, email: member.email },
      requestId: 'pw-change-1',
      service: 'auth',
      outcome: 'success',
    });
    expect(entry.attributes.clientAddress).toEqual(expect.any(String));

    // On the wallet service: an operator credit of the organization's wallet.
    const wallet = await waitFor(
      async () => {
        const res = await stack.request('GET', '/v1/api/wallets?entity_type=organization', {
          token: owner.token,
        });
        return res.body.data?.find((w: { entity_id: string }) => w.entity_id === orgId);
      },
      { timeoutMs: 5000, what: 'the organization wallet' },
    );
    const credited = await stack.request('POST', `/v1/api/wallets/${wallet.address_hash}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 250, description: 'grant', reference_id: 'grant-1' } },
    });
    expect(credited.status).toBe(201);
    const creditedAt = Date.now();
    const credit = await waitFor(async () => (await log('?action=wallet.credited')).body.data[0], {
      timeoutMs: 2000,
      intervalMs: 25,
      what: 'the credit in the audit log',
    });
    expect(Date.now() - creditedAt).toBeLessThan(2000);
    expect(credit.attributes).toMatchObject({
      actor: { id: owner.id },
      target: { type: 'wallet', id: wallet.address_hash },
      service: 'wallet',
      details: { amount: '250', asset: 'CREDITS', adminAccess: true },
    });
    const exported = await stack.request(
      'GET',
      `/v1/api/organizations/${orgId}/audit_log/export?format=csv`,
      { token: owner.token },
    );
    expect(exported.status).toBe(200);
    expect(exported.body).not.toContain(stack.env.keys.adminAccessToken);
    expect(exported.body).not.toContain('another long password');

    // An idempotent replay of the credit records nothing new.
    await stack.request('POST', `/v1/api/wallets/${wallet.address_hash}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 250, description: 'grant', reference_id: 'grant-1' } },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await log('?action=wallet.credited')).body.data).toHaveLength(1);

    // Another tenant: 404, exactly as for an organization that does not exist.
    const foreign = await log('', other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].code).toBe('NOT_FOUND');
    // A plain member: 403.
    expect((await log('', member.token)).status).toBe(403);
  });

  it('documents the new routes with their request and response schemas in the OpenAPI document', async () => {
    const res = await fetch(`${stack.gatewayUrl}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      info: object;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.info).not.toHaveProperty('x-unavailable-services');
    const operations: [string, string, string][] = [
      ['/v1/api/oauth/token/mfa', 'post', '200'],
      ['/v1/api/users/me/two_factor', 'get', '200'],
      ['/v1/api/users/me/two_factor', 'post', '201'],
      ['/v1/api/users/me/two_factor/confirm', 'post', '200'],
      ['/v1/api/users/me/two_factor/disable', 'post', '200'],
      ['/v1/api/users/me/two_factor/recovery_codes', 'post', '200'],
      ['/v1/api/users/me/sessions', 'get', '200'],
      ['/v1/api/users/me/sessions', 'delete', '200'],
      ['/v1/api/users/me/sessions/{sessionId}', 'delete', '204'],
      ['/v1/api/organizations/{organizationId}/audit_log', 'get', '200'],
      ['/v1/api/organizations/{organizationId}/audit_log/export', 'get', '200'],
      ['/v1/api/organizations/{organizationId}/security_policy', 'get', '200'],
      ['/v1/api/organizations/{organizationId}/security_policy', 'patch', '200'],
    ];
    for (const [path, method, status] of operations) {
      expect(doc.paths[path]?.[method]?.responses).toHaveProperty(status);
    }
    // Request bodies are named schemas; answers are described inline (from the handlers'
    // return types), so their named copies are not kept (docs/api-documentation.md § Examples).
    for (const schema of ['MfaTokenRequestDto', 'UpdateSecurityPolicyDto']) {
      expect(doc.components.schemas).toHaveProperty(schema);
    }
    for (const [path, method, status] of operations.filter(([, , s]) => s !== '204')) {
      const answer = doc.paths[path]?.[method]?.responses?.[status] as
        { content?: Record<string, { schema?: unknown }> } | undefined;
      expect(
        answer?.content?.['application/json']?.schema ?? answer?.content?.['*/*'],
      ).toBeDefined();
    }
  });
});

import type { Browser } from 'playwright-core';
import { PlatformStack } from '../support/stack.js';
import {
  ClientPage,
  clientPkce,
  launchBrowser,
  signInWithBrowser,
  TestOidcProvider,
} from '../support/oidc-sign-in.js';

const PASSWORD = 'a long password';

interface ErrorBody {
  errors: { code: string }[];
}

/**
 * Sign-in with an OpenID provider through the gateway (docs/auth.md § Sign-in with an OpenID
 * provider): a real provider (oidc-provider) and a real browser (Chromium through
 * playwright-core) go through the whole redirect dance from a client page to the session
 * envelope, and every refusal the flow promises is provoked for real.
 */
describe('sign-in with an OpenID provider', () => {
  let stack: PlatformStack;
  let provider: TestOidcProvider;
  let client: ClientPage;
  let browser: Browser;
  let appId: string;

  const admin = (method: string, path: string, body?: unknown) =>
    stack.request(method, path, {
      body,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
    });

  const createConnection = async (slug: string, extra: Record<string, unknown> = {}) => {
    const res = await admin('POST', '/v1/api/oauth/connections', {
      slug,
      name: `Test ${slug}`,
      issuer: provider.issuer,
      clientId: 'platform',
      clientSecret: 'platform-secret-of-the-test-provider',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; slug: string };
  };

  const authorizeUrl = (
    connection: string,
    pkce: { challenge: string; state: string },
    redirectUri = client.redirectUri,
  ) =>
    `${stack.gatewayUrl}/v1/api/oauth/authorize?${new URLSearchParams({
      connection,
      client_id: appId,
      redirect_uri: redirectUri,
      state: pkce.state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }).toString()}`;

  const exchange = (code: string, verifier: string, redirectUri = client.redirectUri) =>
    stack.request('POST', '/v1/api/oauth/token', {
      body: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
    });

  const signIn = async (connection: string, login: string) => {
    const pkce = clientPkce();
    const outcome = await signInWithBrowser(browser, client, authorizeUrl(connection, pkce), login);
    return { ...outcome, pkce };
  };

  beforeAll(async () => {
    stack = await PlatformStack.start({ OIDC_ALLOW_INSECURE_ISSUERS: 'true' });
    // The callback as browsers reach it: through this stack's gateway (known once it listens).
    stack.env.env['OIDC_CALLBACK_URL'] = `${stack.gatewayUrl}/v1/api/oauth/callback`;
    await stack.stopService('auth');
    await stack.startService('auth');
    client = await ClientPage.start();
    provider = await TestOidcProvider.start({
      clientId: 'platform',
      clientSecret: 'platform-secret-of-the-test-provider',
      redirectUris: [`${stack.gatewayUrl}/v1/api/oauth/callback`],
      accounts: {
        alice: { email: 'alice@example.com', email_verified: true, name: 'Alice Liddell' },
        mallory: { email: 'owner@example.com', email_verified: false },
        verifiedOwner: { email: 'owner@example.com', email_verified: true },
        bob: { email: 'bob@example.com', email_verified: true },
      },
    });
    browser = await launchBrowser();
    // The bootstrap Api-Key's application, as its token says.
    const user = await stack.request('POST', '/v1/api/users', {
      body: { username: 'owner@example.com', password: PASSWORD },
    });
    expect(user.status).toBe(200);
    const info = await stack.request('GET', '/v1/api/oauth/token/info', {
      token: user.body.data.attributes.accessToken,
    });
    appId = info.body.client_id;
    const uris = await admin('PUT', `/v1/api/oauth/applications/${appId}/redirect_uris`, {
      redirectUris: [client.redirectUri],
    });
    expect(uris.status).toBe(200);
    await createConnection('test');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    provider?.stop();
    await client?.close();
    await stack?.close();
  });

  it('signs a new person in through the browser, then the access token works on the API', async () => {
    const { params, pkce } = await signIn('test', 'alice');
    expect(params.get('error')).toBeNull();
    expect(params.get('state')).toBe(pkce.state);
    const code = params.get('code')!;
    expect(code).toMatch(/^oac_/);

    const session = await exchange(code, pkce.verifier);
    expect(session.status).toBe(200);
    const attributes = session.body.data.attributes;
    expect(attributes.email).toBe('alice@example.com');
    expect(attributes.firstName).toBe('Alice');
    expect(attributes.lastName).toBe('Liddell');
    expect(attributes.refreshToken).toMatch(/^rt_/);

    const identities = await stack.request('GET', '/v1/api/users/me/identities', {
      token: attributes.accessToken,
    });
    expect(identities.status).toBe(200);
    expect(identities.body.data).toHaveLength(1);
    expect(identities.body.data[0].attributes).toMatchObject({
      issuer: provider.issuer,
      subject: 'alice',
      connection: { slug: 'test' },
    });
    const sessions = await stack.request('GET', '/v1/api/users/me/sessions', {
      token: attributes.accessToken,
    });
    expect(sessions.status).toBe(200);

    // The second sign-in of the same person finds the same account.
    const again = await signIn('test', 'alice');
    const second = await exchange(again.params.get('code')!, again.pkce.verifier);
    expect(second.status).toBe(200);
    const sub = (t: string) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString()).sub;
    expect(sub(second.body.data.attributes.accessToken)).toBe(sub(attributes.accessToken));

    // Another account neither sees nor unlinks it (404, like an unknown id).
    const owner = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'owner@example.com', password: PASSWORD },
    });
    const ownerToken = owner.body.data.attributes.accessToken as string;
    const foreign = await stack.request(
      'DELETE',
      `/v1/api/users/me/identities/${identities.body.data[0].id}`,
      { token: ownerToken },
    );
    expect(foreign.status).toBe(404);
    const ownerList = await stack.request('GET', '/v1/api/users/me/identities', {
      token: ownerToken,
    });
    expect(ownerList.body.data).toEqual([]);

    // The last way to sign in cannot be unlinked.
    const unlink = await stack.request(
      'DELETE',
      `/v1/api/users/me/identities/${identities.body.data[0].id}`,
      { token: attributes.accessToken },
    );
    expect(unlink.status).toBe(409);
    expect(unlink.body.errors[0].code).toBe('LAST_SIGN_IN_METHOD');
  });

  it('uses a code once, and only with the right PKCE verifier', async () => {
    const replayed = await signIn('test', 'bob');
    const code = replayed.params.get('code')!;
    expect((await exchange(code, replayed.pkce.verifier)).status).toBe(200);
    const again = await exchange(code, replayed.pkce.verifier);
    expect(again.status).toBe(400);
    expect(again.body.errors[0].code).toBe('INVALID_GRANT');

    const wrongVerifier = await signIn('test', 'bob');
    const refused = await exchange(wrongVerifier.params.get('code')!, clientPkce().verifier);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('INVALID_GRANT');
    // The failed attempt used the code up: the right verifier is too late.
    const late = await exchange(wrongVerifier.params.get('code')!, wrongVerifier.pkce.verifier);
    expect(late.status).toBe(400);
  });

  it('refuses a replayed state at the callback with a 400, not a redirect', async () => {
    const first = await signIn('test', 'bob');
    expect(first.params.get('code')).toBeTruthy();
    expect(first.callbackUrl).toContain('state=');
    const replay = await fetch(first.callbackUrl!, { redirect: 'manual' });
    expect(replay.status).toBe(400);
    expect(replay.headers.get('location')).toBeNull();
    expect(((await replay.json()) as ErrorBody).errors[0].code).toBe('SSO_STATE_INVALID');
  });

  it('answers an unregistered redirect_uri or unknown client with a 400 and never redirects', async () => {
    const pkce = clientPkce();
    const foreign = await fetch(authorizeUrl('test', pkce, 'http://127.0.0.1:1/evil'), {
      redirect: 'manual',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    expect(((await foreign.json()) as ErrorBody).errors[0].code).toBe('REDIRECT_URI_NOT_ALLOWED');

    const unknown = await fetch(
      authorizeUrl('test', pkce).replace(appId, '00000000-0000-4000-8000-000000000000'),
      { redirect: 'manual' },
    );
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as ErrorBody).errors[0].code).toBe('INVALID_CLIENT');
  });

  it('sends a missing PKCE challenge back to the client as an RFC 6749 error', async () => {
    const pkce = clientPkce();
    const url = authorizeUrl('test', pkce).replace(/&code_challenge=[^&]*/, '');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(client.redirectUri);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe(pkce.state);
  });

  it('never links an unverified e-mail to an existing account, nor a verified one to an account with a password', async () => {
    const unverified = await signIn('test', 'mallory');
    expect(unverified.params.get('code')).toBeNull();
    expect(unverified.params.get('error')).toBe('access_denied');
    expect(unverified.params.get('error_code')).toBe('EMAIL_NOT_VERIFIED');
    expect(unverified.params.get('state')).toBe(unverified.pkce.state);

    const verified = await signIn('test', 'verifiedOwner');
    expect(verified.params.get('error_code')).toBe('ACCOUNT_LINK_REQUIRED');

    // The password account is untouched: no identity was linked to it.
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'owner@example.com', password: PASSWORD },
    });
    const identities = await stack.request('GET', '/v1/api/users/me/identities', {
      token: login.body.data.attributes.accessToken,
    });
    expect(identities.body.data).toEqual([]);
  });

  it('refuses a disabled connection', async () => {
    const connection = await createConnection('soon-off');
    const off = await admin('PATCH', `/v1/api/oauth/connections/${connection.id}`, {
      enabled: false,
    });
    expect(off.status).toBe(200);
    expect(off.body.data.enabled).toBe(false);
    const res = await signIn('soon-off', 'alice');
    expect(res.params.get('error')).toBe('access_denied');
    expect(res.params.get('error_code')).toBe('CONNECTION_DISABLED');
  });

  it('refuses an ID token signed with another key than the published ones', async () => {
    // A connection of its own: its provider metadata and key set are fetched afresh.
    await createConnection('wrong-keys');
    await provider.faults({ wrongKeys: true });
    try {
      const res = await signIn('wrong-keys', 'alice');
      expect(res.params.get('code')).toBeNull();
      expect(res.params.get('error_code')).toBe('ID_TOKEN_INVALID');
    } finally {
      await provider.faults({ wrongKeys: false });
    }
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    await provider.faults({ nonce: 'not-the-platforms-nonce' });
    try {
      const res = await signIn('test', 'alice');
      expect(res.params.get('code')).toBeNull();
      expect(res.params.get('error_code')).toBe('ID_TOKEN_INVALID');
    } finally {
      await provider.faults({ nonce: null });
    }
  });

  it('keeps connections to operators: Admin-Access required, secret never shown', async () => {
    const anonymous = await stack.request('GET', '/v1/api/oauth/connections');
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.errors[0].code).toBe('ADMIN_ACCESS_REQUIRED');
    const list = await admin('GET', '/v1/api/oauth/connections');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('platform-secret-of-the-test-provider');
    const taken = await admin('POST', '/v1/api/oauth/connections', {
      slug: 'test',
      name: 'again',
      issuer: provider.issuer,
      clientId: 'x',
      clientSecret: 'y',
    });
    expect(taken.status).toBe(409);
  });
});

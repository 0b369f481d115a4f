import { waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { PasskeyBrowser } from '../support/passkey-browser.js';
import { PlatformStack } from '../support/stack.js';

const PASSWORD = 'a long password';
const OPTIONS_LIMIT = 20;

/** Calls `request` until it answers 429 (two windows' worth at most: the window may turn). */
async function untilLimited<R extends { status: number }>(
  request: () => Promise<R>,
  limit: number,
): Promise<{ res: R; allowed: number }> {
  for (let i = 0; i <= 2 * limit + 1; i++) {
    const res = await request();
    if (res.status === 429) return { res, allowed: i };
    expect(res.status).toBe(200);
  }
  throw new Error('never rate limited');
}

/**
 * Passkeys end to end (docs/auth.md § Passkeys): headless Chromium with a virtual authenticator
 * registers a passkey through the gateway, signs in with it without a username, and the
 * platform refuses what it must: a replayed assertion, a counter that does not move forward,
 * another origin than the relying party's, a removed passkey (and the sessions it signed in),
 * another account's passkey id. The two-factor policy: passkeys-two-factor-policy.e2e-spec.ts.
 */
describe('passkeys in a real browser through the gateway', () => {
  let stack: PlatformStack;
  const browser = new PasskeyBrowser();
  let auth: DataSource;
  let appId: string;

  beforeAll(async () => {
    await browser.listen();
    // A low passkey challenge limit, used up by the last test (one client address for all).
    stack = await PlatformStack.start({
      WEBAUTHN_ORIGINS: browser.origin,
      PASSKEY_OPTIONS_RATE_LIMIT: String(OPTIONS_LIMIT),
    });
    await browser.open(stack.gatewayUrl);
    auth = stack.apps.get('auth')!.get(DataSource);
    appId = (await auth.query<{ id: string }[]>('SELECT id FROM client_application'))[0].id;
  }, 180_000);
  afterAll(async () => {
    await browser.close();
    await stack?.close();
  });

  const signUp = async (email: string) => {
    const res = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    return { id: res.body.data.id as string, email, token: res.body.data.attributes.accessToken };
  };
  // One discoverable credential at a time in the authenticator: with several, Chromium would
  // ask which account to use.
  beforeEach(async () => {
    await browser.cdp.send('WebAuthn.clearCredentials', {
      authenticatorId: browser.authenticatorId,
    });
  });

  const storedCount = async (id: string) =>
    Number(
      (await auth.query('SELECT sign_count FROM passkey_credential WHERE id = $1', [id]))[0]
        .sign_count,
    );
  const setOrigins = (origins: string[] | null) =>
    auth.query('UPDATE client_application SET webauthn_origins = $2 WHERE id = $1', [
      appId,
      origins,
    ]);

  it('registers, lists, signs in usernameless, moves the counter and refuses a replay', async () => {
    const user = await signUp('passkey-owner@example.com');
    const registered = await browser.register(stack.apiKey, user.token, 'Laptop');
    expect(registered.status).toBe(201);
    const passkey = registered.body.data;
    expect(passkey).toMatchObject({
      type: 'passkey',
      attributes: { name: 'Laptop', rpId: 'localhost' },
    });
    expect(passkey.attributes.transports).toEqual(['internal']);

    const list = await stack.request('GET', '/v1/api/users/me/passkeys', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(Object.keys(list.body.data[0].attributes).sort()).toEqual(
      ['backedUp', 'createdAt', 'deviceType', 'lastUsedAt', 'name', 'rpId', 'transports'].sort(),
    );
    expect(list.body.data[0].attributes.lastUsedAt).toBeNull();

    const before = (await browser.credentials())[0].signCount;
    const signedIn = await browser.signIn(stack.apiKey);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ type: 'session', id: user.id });
    expect(Object.keys(signedIn.body.data.attributes).sort()).toEqual(
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
    const orgs = await stack.request('GET', '/v1/api/organizations', {
      token: signedIn.body.data.attributes.accessToken,
    });
    expect(orgs.status).toBe(200);
    const after = (await browser.credentials())[0].signCount;
    expect(after).toBeGreaterThan(before);
    expect(await storedCount(passkey.id)).toBe(after);
    const listed = await stack.request('GET', '/v1/api/users/me/passkeys', { token: user.token });
    expect(listed.body.data[0].attributes.lastUsedAt).toEqual(expect.any(String));

    const replay = await stack.request('POST', '/v1/api/oauth/token/passkey', {
      body: { credential: signedIn.credential },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].code).toBe('PASSKEY_CHALLENGE_INVALID');

    // A counter behind the stored one (a cloned authenticator) is refused.
    await auth.query('UPDATE passkey_credential SET sign_count = 1000000 WHERE id = $1', [
      passkey.id,
    ]);
    const cloned = await browser.signIn(stack.apiKey);
    expect(cloned.status).toBe(401);
    expect(cloned.body.errors[0].code).toBe('INVALID_PASSKEY');
    await auth.query('UPDATE passkey_credential SET sign_count = 0 WHERE id = $1', [passkey.id]);

    const refreshed = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: signedIn.body.data.attributes.refreshToken },
    });
    expect(refreshed.status).toBe(200);
  }, 120_000);

  it('refuses ceremonies from an origin the application does not allow', async () => {
    const user = await signUp('passkey-origin@example.com');
    expect((await browser.register(stack.apiKey, user.token, 'Phone')).status).toBe(201);
    await setOrigins(['https://app.example.com']);
    try {
      const signIn = await browser.signIn(stack.apiKey);
      expect(signIn.status).toBe(401);
      expect(signIn.body.errors[0].code).toBe('INVALID_PASSKEY');
    } finally {
      await setOrigins(null);
    }
    // The application's own setting, when it names this origin, is enough.
    await setOrigins([browser.origin]);
    try {
      expect((await browser.signIn(stack.apiKey)).status).toBe(200);
    } finally {
      await setOrigins(null);
    }
    // Registration too (another account: the authenticator holds this one's credential).
    const other = await signUp('passkey-origin-2@example.com');
    await setOrigins(['https://app.example.com']);
    try {
      const registration = await browser.register(stack.apiKey, other.token, 'Other');
      expect(registration.status).toBe(422);
      expect(registration.body.errors[0].code).toBe('PASSKEY_VERIFICATION_FAILED');
    } finally {
      await setOrigins(null);
    }
    const list = await stack.request('GET', '/v1/api/users/me/passkeys', { token: other.token });
    expect(list.body.data).toEqual([]);
  }, 120_000);

  it("cannot delete another account's passkey; a removed passkey no longer signs in", async () => {
    const owner = await signUp('passkey-victim@example.com');
    const other = await signUp('passkey-other@example.com');
    const registered = await browser.register(stack.apiKey, owner.token, 'Key');
    expect(registered.status).toBe(201);
    const id = registered.body.data.id as string;

    const foreign = await stack.request('DELETE', `/v1/api/users/me/passkeys/${id}`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
    const renamed = await stack.request('PATCH', `/v1/api/users/me/passkeys/${id}`, {
      token: other.token,
      body: { name: 'mine now' },
    });
    expect(renamed.status).toBe(404);
    const otherList = await stack.request('GET', '/v1/api/users/me/passkeys', {
      token: other.token,
    });
    expect(otherList.body.data).toEqual([]);
    expect((await browser.signIn(stack.apiKey)).status).toBe(200);

    const removed = await stack.request('DELETE', `/v1/api/users/me/passkeys/${id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    const after = await browser.signIn(stack.apiKey);
    expect(after.status).toBe(401);
    expect(after.body.errors[0].code).toBe('INVALID_PASSKEY');
  }, 120_000);

  it('ends the sessions a removed passkey signed in, and only those', async () => {
    const user = await signUp('passkey-sessions@example.com');
    const registered = await browser.register(stack.apiKey, user.token, 'Lost phone');
    expect(registered.status).toBe(201);
    const id = registered.body.data.id as string;
    const signedIn = await browser.signIn(stack.apiKey);
    expect(signedIn.status).toBe(200);
    const session = signedIn.body.data.attributes;
    const orgsWith = (token: string) => stack.request('GET', '/v1/api/organizations', { token });
    expect((await orgsWith(session.accessToken)).status).toBe(200);

    const removed = await stack.request('DELETE', `/v1/api/users/me/passkeys/${id}`, {
      token: user.token,
    });
    expect(removed.status).toBe(204);
    // Its access token is refused through the gateway (deny-listed before the commit)...
    const refused = await waitFor(
      async () => {
        const res = await orgsWith(session.accessToken);
        return res.status === 401 ? res : undefined;
      },
      { timeoutMs: 3000, what: 'the passkey session’s access token being refused' },
    );
    expect(refused.body.errors[0].code).toBe('TOKEN_REVOKED');
    // ...its refresh token family is revoked...
    const refreshed = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: session.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    const [family] = await auth.query<{ revoked_reason: string; passkey_id: string }[]>(
      `SELECT revoked_reason, passkey_id FROM refresh_token_family
        WHERE passkey_id = $1`,
      [id],
    );
    expect(family).toEqual({ revoked_reason: 'passkey_removed', passkey_id: id });
    // ...and the account's password session is untouched.
    expect((await orgsWith(user.token)).status).toBe(200);
    const sessions = await stack.request('GET', '/v1/api/users/me/sessions', {
      token: user.token,
    });
    expect(sessions.body.data).toHaveLength(1);
  }, 120_000);

  it('ends a passkey session whose passkey is unknown (opened before sessions recorded it) on a removal', async () => {
    const user = await signUp('passkey-unknown@example.com');
    const first = await browser.register(stack.apiKey, user.token, 'Old laptop');
    expect(first.status).toBe(201);
    const signedIn = await browser.signIn(stack.apiKey);
    expect(signedIn.status).toBe(200);
    const session = signedIn.body.data.attributes;
    // As a session of a release before `passkey_id` existed: a passkey amr, no passkey recorded.
    // (TypeORM answers an UPDATE … RETURNING with [rows, count].)
    const [cleared] = await auth.query<[{ id: string }[], number]>(
      `UPDATE refresh_token_family SET passkey_id = NULL
        WHERE passkey_id = $1 AND 'hwk' = ANY (amr) RETURNING id`,
      [first.body.data.id],
    );
    expect(cleared).toHaveLength(1);
    // Removing the passkey: the session does not name it, yet ends (it may have opened it).
    const removed = await stack.request(
      'DELETE',
      `/v1/api/users/me/passkeys/${first.body.data.id}`,
      {
        token: user.token,
      },
    );
    expect(removed.status).toBe(204);
    const refreshed = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: session.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    const [family] = await auth.query<{ revoked_reason: string }[]>(
      'SELECT revoked_reason FROM refresh_token_family WHERE id = $1',
      [cleared[0].id],
    );
    expect(family.revoked_reason).toBe('passkey_removed');
    // The password session stays.
    expect(
      (await stack.request('GET', '/v1/api/users/me/sessions', { token: user.token })).status,
    ).toBe(200);
  }, 120_000);

  it('records passkey added, used and removed in the audit log of the account’s organizations', async () => {
    const user = await signUp('passkey-audit@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: user.token,
      body: { data: { type: 'organization', attributes: { name: 'Passkey Co' } } },
    });
    const orgId = org.body.data.id as string;
    const registered = await browser.register(stack.apiKey, user.token, 'Audited');
    expect(registered.status).toBe(201);
    expect((await browser.signIn(stack.apiKey)).status).toBe(200);
    expect(
      (
        await stack.request('DELETE', `/v1/api/users/me/passkeys/${registered.body.data.id}`, {
          token: user.token,
        })
      ).status,
    ).toBe(204);
    const actions = await waitFor(
      async () => {
        const log = await stack.request('GET', `/v1/api/organizations/${orgId}/audit_log`, {
          token: user.token,
        });
        const seen = (log.body.data ?? []).map(
          (e: { attributes: { action: string; details: { method?: string } } }) =>
            `${e.attributes.action}${e.attributes.details.method ? `:${e.attributes.details.method}` : ''}`,
        );
        return seen.includes('user.passkey_removed') ? seen : undefined;
      },
      { timeoutMs: 5000, what: 'the passkey entries in the audit log' },
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'user.passkey_added',
        'user.signed_in:passkey',
        'user.passkey_removed',
      ]),
    );
  }, 120_000);

  // Last: it uses up this address's sign-in challenge allowance.
  it('rate limits passkey challenges: sign-in per client address, registration per account', async () => {
    const user = await signUp('passkey-limits@example.com');
    const registration = () =>
      stack.request('POST', '/v1/api/users/me/passkeys/options', { token: user.token });
    const limited = await untilLimited(registration, OPTIONS_LIMIT);
    expect(limited.allowed).toBeGreaterThan(0);
    expect(limited.res.body.errors[0]).toMatchObject({
      code: 'RATE_LIMITED',
      meta: { limit: 'passkey_options' },
    });
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account has its own allowance.
    const other = await signUp('passkey-limits-other@example.com');
    const theirs = await stack.request('POST', '/v1/api/users/me/passkeys/options', {
      token: other.token,
    });
    expect(theirs.status).toBe(200);

    const signIn = () => stack.request('POST', '/v1/api/oauth/passkey/options');
    const refused = await untilLimited(signIn, OPTIONS_LIMIT);
    expect(refused.res.body.errors[0]).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});

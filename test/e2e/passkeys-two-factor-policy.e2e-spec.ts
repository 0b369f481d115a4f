import { waitFor } from '@wp/testing';
import { Secret, TOTP } from 'otpauth';
import { PasskeyBrowser } from '../support/passkey-browser.js';
import { PlatformStack } from '../support/stack.js';

const PASSWORD = 'a long password';

/**
 * Passkey sessions and the organization two-factor policy (docs/auth.md § Passkeys, "What counts
 * as two factors"; docs/org.md § Two-factor policy), with headless Chromium and a virtual
 * authenticator as in passkeys.e2e-spec.ts: a session signed in with a user-verified passkey is
 * let into an organization that requires two-factor, gets the same `meta.can` in lists and the
 * sidebar as a TOTP-verified session, and lets its owner turn the policy on.
 */
describe('passkey sessions under the organization two-factor policy', () => {
  let stack: PlatformStack;
  const browser = new PasskeyBrowser();

  beforeAll(async () => {
    await browser.listen();
    stack = await PlatformStack.start({ WEBAUTHN_ORIGINS: browser.origin });
    await browser.open(stack.gatewayUrl);
  }, 180_000);
  afterAll(async () => {
    await browser.close();
    await stack?.close();
  });
  // One discoverable credential at a time in the authenticator (Chromium would ask which).
  beforeEach(async () => {
    await browser.cdp.send('WebAuthn.clearCredentials', {
      authenticatorId: browser.authenticatorId,
    });
  });

  const signUp = async (email: string) => {
    const res = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    return { id: res.body.data.id as string, email, token: res.body.data.attributes.accessToken };
  };
  /** Turns TOTP two-factor on for the account; the authenticator app's secret. */
  const enableTotp = async (token: string) => {
    const started = await stack.request('POST', '/v1/api/users/me/two_factor', {
      token,
      body: { password: PASSWORD },
    });
    const totp = new TOTP({ secret: Secret.fromBase32(started.body.data.attributes.secret) });
    const confirmed = await stack.request('POST', '/v1/api/users/me/two_factor/confirm', {
      token,
      body: { code: totp.generate() },
    });
    expect(confirmed.status).toBe(200);
  };
  const requireTwoFactor = (orgId: string, token: string) =>
    stack.request('PATCH', `/v1/api/organizations/${orgId}/security_policy`, {
      token,
      body: { data: { type: 'security_policy', attributes: { requireTwoFactor: true } } },
    });
  const listedOrganization = async (token: string, orgId: string) => {
    const list = await stack.request('GET', '/v1/api/organizations', { token });
    expect(list.status).toBe(200);
    return list.body.data.find((o: { id: string }) => o.id === orgId);
  };
  const sidebarOrganization = async (token: string, orgId: string) => {
    const settings = await stack.request('GET', '/v1/api/user_settings', { token });
    expect(settings.status).toBe(200);
    return settings.body.sidebar.organizations.find((o: { id: number }) => String(o.id) === orgId);
  };

  it("lets a passkey session into an organization that requires two-factor, not the same account's password session", async () => {
    const owner = await signUp('passkey-policy-owner@example.com');
    await enableTotp(owner.token);
    const member = await signUp('passkey-policy-member@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Strict Co' } } },
    });
    const orgId = org.body.data.id as string;
    const added = await stack.request('POST', `/v1/api/organizations/${orgId}/add_user`, {
      token: owner.token,
      body: { data: { type: 'users', attributes: { email: member.email, role: 'MEMBER' } } },
    });
    expect(added.status).toBe(201);
    const policy = await waitFor(
      async () => {
        const res = await stack.request('PATCH', `/v1/api/organizations/${orgId}/security_policy`, {
          token: owner.token,
          body: { data: { type: 'security_policy', attributes: { requireTwoFactor: true } } },
        });
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: 5000, what: 'org learning that the owner has two-factor on' },
    );
    expect(policy.body.data.attributes.requireTwoFactor).toBe(true);

    const shutOut = await stack.request('GET', `/v1/api/organizations/${orgId}`, {
      token: member.token,
    });
    expect(shutOut.status).toBe(403);
    expect(shutOut.body.errors[0].code).toBe('ORGANIZATION_REQUIRES_TWO_FACTOR');

    expect((await browser.register(stack.apiKey, member.token, 'Strong')).status).toBe(201);
    const signedIn = await browser.signIn(stack.apiKey);
    expect(signedIn.status).toBe(200);
    const session = signedIn.body.data.attributes;
    const claims = JSON.parse(
      Buffer.from(session.accessToken.split('.')[1], 'base64url').toString(),
    );
    expect(claims.amr).toEqual(['hwk', 'user', 'mfa']);
    const allowed = await stack.request('GET', `/v1/api/organizations/${orgId}`, {
      token: session.accessToken,
    });
    expect(allowed.status).toBe(200);
    // Kept through a refresh (the family carries it).
    const refreshed = await stack.request('POST', '/v1/api/oauth/token/refresh', {
      body: { refresh_token: session.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const again = await stack.request('GET', `/v1/api/organizations/${orgId}`, {
      token: refreshed.body.data.attributes.accessToken,
    });
    expect(again.status).toBe(200);
    // The same account signed in with its password is still shut out.
    const password = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: member.email, password: PASSWORD },
    });
    const still = await stack.request('GET', `/v1/api/organizations/${orgId}`, {
      token: password.body.data.attributes.accessToken,
    });
    expect(still.status).toBe(403);
  }, 120_000);

  it('gives a passkey session of a member the meta.can a TOTP-verified one gets, in lists and the sidebar', async () => {
    const owner = await signUp('passkey-can-owner@example.com');
    await enableTotp(owner.token);
    const member = await signUp('passkey-can-member@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Can Co' } } },
    });
    const orgId = org.body.data.id as string;
    const added = await stack.request('POST', `/v1/api/organizations/${orgId}/add_user`, {
      token: owner.token,
      body: { data: { type: 'users', attributes: { email: member.email, role: 'ADMIN' } } },
    });
    expect(added.status).toBe(201);
    await waitFor(
      async () => ((await requireTwoFactor(orgId, owner.token)).status === 200 ? true : undefined),
      { timeoutMs: 5000, what: 'org learning that the owner has two-factor on' },
    );
    expect((await browser.register(stack.apiKey, member.token, 'Can')).status).toBe(201);
    const signedIn = await browser.signIn(stack.apiKey);
    expect(signedIn.status).toBe(200);
    const passkeyToken = signedIn.body.data.attributes.accessToken as string;

    // The password session is shut out: every meta.can entry false.
    const blocked = await listedOrganization(member.token, orgId);
    const granted = (can: Record<string, Record<string, boolean>>) =>
      Object.values(can).flatMap((group) => Object.values(group));
    expect(granted(blocked.meta.can).every((v) => v === false)).toBe(true);
    expect((await sidebarOrganization(member.token, orgId)).meta.can.project.create).toBe(false);

    // The passkey session gets the role's permissions, as GET /organizations/{id} answers them.
    const single = await stack.request('GET', `/v1/api/organizations/${orgId}`, {
      token: passkeyToken,
    });
    expect(single.status).toBe(200);
    expect(single.body.data.meta.can.project.create).toBe(true);
    const listed = await listedOrganization(passkeyToken, orgId);
    expect(listed.meta.can).toEqual(single.body.data.meta.can);
    const sidebar = await sidebarOrganization(passkeyToken, orgId);
    expect(sidebar.meta.can.project.create).toBe(true);

    // Once the account has TOTP on, its password session gets exactly the same answers.
    await enableTotp(member.token);
    const verified = await waitFor(
      async () => {
        const entry = await listedOrganization(member.token, orgId);
        return entry.meta.can.organization.read ? entry : undefined;
      },
      { timeoutMs: 5000, what: 'org learning that the member has two-factor on' },
    );
    expect(verified.meta).toEqual(listed.meta);
    expect(await sidebarOrganization(member.token, orgId)).toEqual(sidebar);
  }, 120_000);

  it('lets an owner signed in with a passkey require two-factor, not their password session', async () => {
    const owner = await signUp('passkey-policy-setter@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Passkey Policy Co' } } },
    });
    const orgId = org.body.data.id as string;
    const refused = await requireTwoFactor(orgId, owner.token);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('TWO_FACTOR_NOT_ENABLED');

    expect((await browser.register(stack.apiKey, owner.token, 'Owner key')).status).toBe(201);
    const signedIn = await browser.signIn(stack.apiKey);
    expect(signedIn.status).toBe(200);
    const required = await requireTwoFactor(orgId, signedIn.body.data.attributes.accessToken);
    expect(required.status).toBe(200);
    expect(required.body.data.attributes.requireTwoFactor).toBe(true);
  }, 120_000);
});

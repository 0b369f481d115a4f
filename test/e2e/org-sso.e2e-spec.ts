import { waitFor } from '@wp/testing';
import { Secret, TOTP } from 'otpauth';
import { DnsTxtServer } from '../support/dns-txt-server.js';
import { clientPkce } from '../support/oidc-sign-in.js';
import {
  OidcSignInWorld,
  PROVIDER_SECRET as SECRET,
  WORLD_PASSWORD as PASSWORD,
} from '../support/oidc-sign-in-world.js';

/**
 * Organization single sign-on end to end (docs/org.md § Single sign-on for an organization,
 * docs/auth.md § Organization single sign-on), with a real OpenID provider, Chromium, and a real
 * DNS server on 127.0.0.1 (`DNS_RESOLVER_SERVERS`): a domain proved by TXT, claimed by one
 * organization only, the organization's own connection found by home-realm discovery, the first
 * sign-in making the person a member with the default role, and password sign-in refused once
 * SSO is required. Another organization's OWNER sees none of it (404).
 */
describe('organization single sign-on', () => {
  let dns: DnsTxtServer;
  let world: OidcSignInWorld;
  let ownerA: string;
  let ownerB: string;
  let orgA: string;
  let orgB: string;

  const discovery = (email: string) =>
    world.stack.request('GET', `/v1/api/oauth/discovery?email=${encodeURIComponent(email)}`);

  beforeAll(async () => {
    dns = await DnsTxtServer.start();
    world = await OidcSignInWorld.start(
      {
        dana: { email: 'dana@acme.test', email_verified: true, name: 'Dana Scully' },
        eve: { email: 'eve@elsewhere.test', email_verified: true, name: 'Eve Outsider' },
        ownerA: { email: 'owner-a@acme.test', email_verified: true, name: 'Olive Owner' },
      },
      // The test provider listens on 127.0.0.1: the one private address org connections may reach.
      { DNS_RESOLVER_SERVERS: dns.address, OIDC_ORG_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' },
    );
    ownerA = await world.register('owner-a@acme.test');
    ownerB = await world.register('owner-b@other.test');
    orgA = await world.createOrganization(ownerA, 'Acme');
    orgB = await world.createOrganization(ownerB, 'Other');
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await dns?.close();
  });

  it('verifies a domain by DNS TXT for one organization only, and hides it from other tenants', async () => {
    const domain = await world.addDomain(ownerA, orgA, 'Acme.TEST.');
    expect(domain.attributes).toMatchObject({ domain: 'acme.test', verified: false });
    expect(domain.attributes.verification.name).toBe('_wp-verification.acme.test');
    expect(domain.attributes.verification.value).toMatch(/^wp-verification=[A-Za-z0-9_-]{32}$/);

    // Unverified: discovery knows nothing, and verification without the record is refused.
    expect((await discovery('dana@acme.test')).body).toEqual({ data: null });
    const early = await world.request(
      'POST',
      `/organizations/${orgA}/domains/${domain.id}/verify`,
      ownerA,
    );
    expect(early.status).toBe(422);
    expect(early.body.errors[0].code).toBe('DOMAIN_NOT_VERIFIED');

    // Another organization's OWNER: 404 on every route of A's domains.
    const paths = [
      ['GET', `/organizations/${orgA}/domains`],
      ['POST', `/organizations/${orgA}/domains/${domain.id}/verify`],
      ['DELETE', `/organizations/${orgA}/domains/${domain.id}`],
      ['GET', `/organizations/${orgA}/sso_settings`],
      ['GET', `/oauth/organizations/${orgA}/connection`],
    ] as const;
    for (const [method, path] of paths) {
      expect({ path, status: (await world.request(method, path, ownerB)).status }).toEqual({
        path,
        status: 404,
      });
    }
    const bad = await world.request('POST', `/organizations/${orgA}/domains`, ownerA, {
      data: { attributes: { domain: 'not a domain' } },
    });
    expect(bad.status).toBe(400);

    // B may add the same domain, but cannot verify it once A has.
    const claimB = await world.addDomain(ownerB, orgB, 'acme.test');
    dns.setTxt(domain.attributes.verification.name, [
      'v=spf1 -all',
      domain.attributes.verification.value,
      claimB.attributes.verification.value,
    ]);
    const verified = await world.request(
      'POST',
      `/organizations/${orgA}/domains/${domain.id}/verify`,
      ownerA,
    );
    expect(verified.status).toBe(200);
    expect(verified.body.data.attributes.verified).toBe(true);
    const taken = await world.request(
      'POST',
      `/organizations/${orgB}/domains/${claimB.id}/verify`,
      ownerB,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].code).toBe('DOMAIN_TAKEN');

    const list = await world.request('GET', `/organizations/${orgA}/domains`, ownerA);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].attributes.verified).toBe(true);
    // Verified, but no connection yet: discovery names the domain without a connection.
    // (waitFor stops at anything but undefined or false: null means not replicated yet.)
    const found = await waitFor(
      async () => (await discovery('x@acme.test')).body.data ?? undefined,
      {
        timeoutMs: 10_000,
        what: 'the verified domain in auth',
      },
    );
    expect(found.attributes).toEqual({ domain: 'acme.test', connection: null, ssoRequired: false });
  }, 60_000);

  it("signs a new person in through the organization's own connection and makes them a member", async () => {
    const connection = world.organizationConnection();
    // OWNER in auth's replica of memberships: wait until org's event has been applied.
    const put = await world.whenReplicated(
      'PUT',
      `/oauth/organizations/${orgA}/connection`,
      ownerA,
      connection,
    );
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ slug: `org-${orgA}`, organizationId: Number(orgA) });
    expect(JSON.stringify(put.body)).not.toContain(SECRET);
    const foreign = await world.request(
      'PUT',
      `/oauth/organizations/${orgA}/connection`,
      ownerB,
      connection,
    );
    expect(foreign.status).toBe(404);

    // A tenant's issuer is fetched only at public addresses (here: a cloud metadata address).
    const internal = await world.whenReplicated(
      'PUT',
      `/oauth/organizations/${orgB}/connection`,
      ownerB,
      { ...connection, issuer: 'http://169.254.169.254' },
    );
    expect(internal.status).toBe(200);
    const refusedAuthorize = await fetch(world.authorizeUrl(`org-${orgB}`, clientPkce()), {
      redirect: 'manual',
    });
    expect(refusedAuthorize.status).toBe(302);
    const location = new URL(refusedAuthorize.headers.get('location')!);
    expect(location.searchParams.get('error_code')).toBe('PROVIDER_UNAVAILABLE');

    const realm = await discovery('Dana@ACME.test');
    expect(realm.status).toBe(200);
    expect(realm.body.data.attributes).toEqual({
      domain: 'acme.test',
      connection: `org-${orgA}`,
      ssoRequired: false,
    });
    expect((await discovery('dana@nowhere.test')).body).toEqual({ data: null });
    expect((await discovery('not-an-address')).status).toBe(400);

    const settings = await world.request('GET', `/organizations/${orgA}/sso_settings`, ownerA);
    expect(settings.body.data.attributes).toEqual({ ssoRequired: false, defaultRole: 'MEMBER' });

    // The organization's provider does not vouch for addresses outside its domains.
    const outsider = await world.signIn(`org-${orgA}`, 'eve');
    expect(outsider.params.get('error_code')).toBe('DOMAIN_NOT_VERIFIED');

    const { params, pkce } = await world.signIn(`org-${orgA}`, 'dana');
    expect(params.get('error')).toBeNull();
    const session = await world.exchange(params.get('code')!, pkce.verifier);
    expect(session.status).toBe(200);
    expect(session.body.data.attributes.email).toBe('dana@acme.test');
    const danaToken = session.body.data.attributes.accessToken as string;

    const member = await waitFor(
      async () => {
        const users = await world.request('GET', `/organizations/${orgA}/users`, ownerA);
        return (users.body.data as { attributes: { email: string; role: string } }[]).find(
          (u) => u.attributes.email === 'dana@acme.test',
        );
      },
      { timeoutMs: 10_000, what: 'the just-in-time membership' },
    );
    expect(member.attributes.role).toBe('MEMBER');
    const visible = await world.request('GET', `/organizations/${orgA}`, danaToken);
    expect(visible.status).toBe(200);

    // A second sign-in changes nothing (idempotent): still one membership.
    const again = await world.signIn(`org-${orgA}`, 'dana');
    expect((await world.exchange(again.params.get('code')!, again.pkce.verifier)).status).toBe(200);
    const users = await world.request('GET', `/organizations/${orgA}/users`, ownerA);
    expect(
      (users.body.data as { attributes: { email: string } }[]).filter(
        (u) => u.attributes.email === 'dana@acme.test',
      ),
    ).toHaveLength(1);
  }, 90_000);

  it('refuses password sign-in at the domain once SSO is required, naming the connection', async () => {
    const before = await world.stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'owner-a@acme.test', password: PASSWORD },
    });
    expect(before.status).toBe(200);
    // An account at the domain with two-factor on, half-way through a login when SSO turns on.
    const tina = await world.register('tina@acme.test');
    const enrol = await world.request('POST', '/users/me/two_factor', tina, { password: PASSWORD });
    const totp = new TOTP({ secret: Secret.fromBase32(enrol.body.data.attributes.secret) });
    const confirmed = await world.request('POST', '/users/me/two_factor/confirm', tina, {
      code: totp.generate(),
    });
    const [recoveryCode] = confirmed.body.data.attributes.recoveryCodes as string[];
    const firstStep = await world.stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'tina@acme.test', password: PASSWORD },
    });
    expect(firstStep.body.errors[0].code).toBe('TWO_FACTOR_REQUIRED');
    const required = await world.request('PATCH', `/organizations/${orgA}/sso_settings`, ownerA, {
      data: { type: 'sso_settings', attributes: { ssoRequired: true } },
    });
    expect(required.status).toBe(200);
    expect(required.body.data.attributes).toEqual({ ssoRequired: true, defaultRole: 'MEMBER' });
    const notOwner = await world.request('PATCH', `/organizations/${orgA}/sso_settings`, ownerB, {
      data: { attributes: { ssoRequired: false } },
    });
    expect(notOwner.status).toBe(404);

    const refused = await waitFor(
      async () => {
        const res = await world.stack.request('POST', '/v1/api/oauth/token', {
          body: { username: 'owner-a@acme.test', password: PASSWORD },
        });
        return res.status === 200 ? undefined : res;
      },
      { timeoutMs: 10_000, what: 'ssoRequired in auth' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('SSO_REQUIRED');
    expect(refused.body.errors[0].meta).toEqual({ connection: `org-${orgA}`, domain: 'acme.test' });
    // Nor a second step begun before, nor a new registration at the domain (decided by the
    // domain alone, as for the password grant).
    const secondStep = await world.stack.request('POST', '/v1/api/oauth/token/mfa', {
      body: {
        challenge_token: firstStep.body.errors[0].meta.challenge_token,
        recovery_code: recoveryCode,
      },
    });
    expect(secondStep.status).toBe(403);
    expect(secondStep.body.errors[0]).toMatchObject({
      code: 'SSO_REQUIRED',
      meta: refused.body.errors[0].meta,
    });
    const newcomer = await world.stack.request('POST', '/v1/api/users', {
      body: { username: 'newcomer@ACME.test', password: PASSWORD },
    });
    expect(newcomer.status).toBe(403);
    expect(newcomer.body.errors[0]).toMatchObject({
      code: 'SSO_REQUIRED',
      meta: refused.body.errors[0].meta,
    });
    // Other domains are untouched.
    const other = await world.stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'owner-b@other.test', password: PASSWORD },
    });
    expect(other.status).toBe(200);
    expect((await discovery('dana@acme.test')).body.data.attributes.ssoRequired).toBe(true);

    // The password account at the domain moves to SSO: its first sign-in links to it.
    const sso = await world.signIn(`org-${orgA}`, 'ownerA');
    expect(sso.params.get('error_code')).toBeNull();
    const session = await world.exchange(sso.params.get('code')!, sso.pkce.verifier);
    expect(session.status).toBe(200);
    const sub = (t: string) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString()).sub;
    expect(sub(session.body.data.attributes.accessToken)).toBe(sub(ownerA));
    // Requiring SSO ended the OWNER's password session (docs/auth.md § Organization single
    // sign-on): the old token is refused, the SSO session goes on.
    const ended = await waitFor(
      async () => {
        const res = await world.request('GET', '/oauth/token/info', ownerA);
        return res.status === 200 ? undefined : res;
      },
      { timeoutMs: 10_000, what: "the end of the OWNER's password session" },
    );
    expect(ended.status).toBe(401);
    ownerA = session.body.data.attributes.accessToken as string;

    const actions = [
      'sso_domain.added',
      'sso_domain.verified',
      'organization.sso_settings_changed',
      'organization.sso_connection_changed',
      'member.added',
    ];
    const log = await waitFor(
      async () => {
        const res = await world.request(
          'GET',
          `/organizations/${orgA}/audit_log?limit=100&action=${actions.join(',')}`,
          ownerA,
        );
        const entries = res.body.data as {
          attributes: { action: string; details: Record<string, unknown> };
        }[];
        const seen = new Set(entries.map((e) => e.attributes.action));
        return actions.every((a) => seen.has(a)) ? entries : undefined;
      },
      { timeoutMs: 10_000, what: 'the SSO entries of the audit log' },
    );
    const jit = log.find(
      (e) => e.attributes.action === 'member.added' && e.attributes.details['via'] === 'sso',
    );
    expect(jit?.attributes.details).toMatchObject({ role: 'MEMBER', connection: `org-${orgA}` });
    const signIns = await world.request(
      'GET',
      `/organizations/${orgA}/audit_log?limit=100&action=user.signed_in`,
      ownerA,
    );
    expect(
      (signIns.body.data as { attributes: { details: Record<string, unknown> } }[]).some(
        (e) => e.attributes.details['connection'] === `org-${orgA}`,
      ),
    ).toBe(true);
  }, 60_000);
});

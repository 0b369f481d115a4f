import { SmtpSink, waitFor } from '@wp/testing';
import { DnsTxtServer } from '../support/dns-txt-server.js';
import {
  OidcSignInWorld,
  PROVIDER_SECRET as SECRET,
  WORLD_PASSWORD as PASSWORD,
} from '../support/oidc-sign-in-world.js';
import { PasskeyBrowser } from '../support/passkey-browser.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { RECEIVER_HOST, WEBHOOK_TEST_ENV } from '../support/webhook-world.js';

/**
 * What an organization's SSO settings hold everyone to (docs/auth.md § Organization single
 * sign-on, docs/org.md § Single sign-on for an organization), end to end with a real OpenID
 * provider, Chromium (provider sign-in and a virtual passkey authenticator), a DNS server and an
 * SMTP sink: only OWNERs manage domains and the connection (other roles 403, other tenants 404);
 * once `ssoRequired` is on, password reset, the platform-wide connection and passkeys are refused
 * for addresses at the domain (the organization's own connection still signs in, a webhook
 * event of the organization); removing the verified domain lifts all of it.
 */
describe('organization single sign-on: who may manage it, and every way in it closes', () => {
  let dns: DnsTxtServer;
  let smtp: SmtpSink;
  let hooks: WebhookReceiver;
  const firstOf = (type: string) =>
    waitFor(() => hooks.ofType(type)[0], { timeoutMs: 10_000, what: `a ${type} delivery` });
  let world: OidcSignInWorld;
  const passkeys = new PasskeyBrowser();
  const tokens: Record<string, string> = {};
  let orgA: string;
  let orgB: string;
  let domainA: string;
  let domainB: string;
  let resetToken: string;
  /** Sessions opened before SSO is required: `accessToken` and `refreshToken` of each. */
  const before: Record<string, { accessToken: string; refreshToken: string }> = {};

  const anonymous = (method: string, path: string, body?: unknown) =>
    world.request(method, path, undefined, body);
  /** The organization's own connection at the test provider (its issuer known once started). */
  let connection: ReturnType<OidcSignInWorld['organizationConnection']>;
  const passwordLogin = (username: string) =>
    anonymous('POST', '/oauth/token', { username, password: PASSWORD });
  const resetRequest = (email: string) =>
    anonymous('POST', '/users/password/reset_request', { email });
  const ssoRequired = { connection: '', domain: 'acme.test' };

  beforeAll(async () => {
    dns = await DnsTxtServer.start();
    smtp = await SmtpSink.start();
    hooks = await WebhookReceiver.start(RECEIVER_HOST);
    await passkeys.listen();
    world = await OidcSignInWorld.start(
      {
        dana: { email: 'dana@acme.test', email_verified: true, name: 'Dana Scully' },
        quinn: { email: 'quinn@acme.test', email_verified: true, name: 'Quinn New' },
      },
      {
        DNS_RESOLVER_SERVERS: dns.address,
        OIDC_ORG_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1',
        WEBAUTHN_ORIGINS: passkeys.origin,
        SMTP_URL: smtp.url,
        ...WEBHOOK_TEST_ENV,
      },
    );
    await passkeys.open(world.stack.gatewayUrl);
    connection = world.organizationConnection();
    for (const name of ['boss@corp.test', 'admin@corp.test', 'member@corp.test', 'boss@other.test'])
      tokens[name] = await world.register(name);
    tokens['pat'] = await world.register('pat@acme.test');
    orgA = await world.createOrganization(tokens['boss@corp.test'], 'Acme');
    orgB = await world.createOrganization(tokens['boss@other.test'], 'Other');
    ssoRequired.connection = `org-${orgA}`;
    for (const [email, role] of [
      ['admin@corp.test', 'ADMIN'],
      ['member@corp.test', 'MEMBER'],
    ] as const) {
      const added = await world.request(
        'POST',
        `/organizations/${orgA}/add_user`,
        tokens['boss@corp.test'],
        {
          data: { type: 'users', attributes: { email, role } },
        },
      );
      expect(added.status).toBe(201);
    }
    const domain = await world.addDomain(tokens['boss@corp.test'], orgA, 'acme.test');
    domainA = domain.id;
    dns.setTxt(domain.attributes.verification['name'], [domain.attributes.verification['value']]);
    const verified = await world.request(
      'POST',
      `/organizations/${orgA}/domains/${domainA}/verify`,
      tokens['boss@corp.test'],
    );
    expect(verified.status).toBe(200);
    const endpoint = await world.request(
      'POST',
      `/organizations/${orgA}/webhook_endpoints`,
      tokens['boss@corp.test'],
      {
        data: {
          type: 'webhook_endpoints',
          attributes: {
            url: hooks.url(),
            eventTypes: ['organization.sso_connection_changed', 'member.signed_in_with_sso'],
          },
        },
      },
    );
    expect(endpoint.status).toBe(201);
    domainB = (await world.addDomain(tokens['boss@other.test'], orgB, 'other.test')).id;
    const put = await world.whenReplicated(
      'PUT',
      `/oauth/organizations/${orgA}/connection`,
      tokens['boss@corp.test'],
      connection,
    );
    expect(put.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await passkeys.close();
    await world?.close();
    await smtp?.close();
    await hooks?.close();
    await dns?.close();
  });

  it('lets only OWNERs manage domains, settings and the connection: ADMIN and MEMBER get 403', async () => {
    for (const who of ['admin@corp.test', 'member@corp.test']) {
      const token = tokens[who];
      const orgRoutes = [
        ['GET', `/organizations/${orgA}/domains`, undefined],
        [
          'POST',
          `/organizations/${orgA}/domains`,
          { data: { type: 'organization_domain', attributes: { domain: 'x.test' } } },
        ],
        ['POST', `/organizations/${orgA}/domains/${domainA}/verify`, undefined],
        ['DELETE', `/organizations/${orgA}/domains/${domainA}`, undefined],
        ['GET', `/organizations/${orgA}/sso_settings`, undefined],
        [
          'PATCH',
          `/organizations/${orgA}/sso_settings`,
          { data: { type: 'sso_settings', attributes: { ssoRequired: true } } },
        ],
      ] as const;
      for (const [method, path, body] of orgRoutes) {
        const res = await world.request(method, path, token, body);
        expect({ who, method, path, status: res.status }).toEqual({
          who,
          method,
          path,
          status: 403,
        });
      }
      const path = `/oauth/organizations/${orgA}/connection`;
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', connection],
      ] as const) {
        const res = await world.whenReplicated(method, path, token, body);
        expect({ who, method, status: res.status }).toEqual({ who, method, status: 403 });
      }
    }
    // Nothing changed: still one verified domain, SSO not required, the connection as set.
    const list = await world.request(
      'GET',
      `/organizations/${orgA}/domains`,
      tokens['boss@corp.test'],
    );
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([domainA]);
    const settings = await world.request(
      'GET',
      `/organizations/${orgA}/sso_settings`,
      tokens['boss@corp.test'],
    );
    expect(settings.body.data.attributes.ssoRequired).toBe(false);
  }, 60_000);

  it("announces the organization's connection change as a webhook event, without the secret", async () => {
    const received = await firstOf('organization.sso_connection_changed');
    expect(received.event).toMatchObject({
      type: 'organization.sso_connection_changed',
      organization_id: orgA,
      data: {
        organization_id: orgA,
        id: expect.any(String),
        slug: `org-${orgA}`,
        issuer: world.provider.issuer,
        enabled: true,
        created: true,
      },
    });
    expect(received.body).not.toContain(SECRET);
  });

  it("answers 404 for another organization's domain id or connection, on org and on auth", async () => {
    const bossA = tokens['boss@corp.test'];
    const bossB = tokens['boss@other.test'];
    const foreign = [
      [bossA, 'POST', `/organizations/${orgA}/domains/${domainB}/verify`],
      [bossA, 'DELETE', `/organizations/${orgA}/domains/${domainB}`],
      [bossB, 'POST', `/organizations/${orgB}/domains/${domainA}/verify`],
      [bossB, 'DELETE', `/organizations/${orgB}/domains/${domainA}`],
      [bossB, 'GET', `/oauth/organizations/${orgA}/connection`],
      [bossB, 'PUT', `/oauth/organizations/${orgA}/connection`],
    ] as const;
    for (const [token, method, path] of foreign) {
      const body = method === 'PUT' ? { ...connection, name: 'Hijack' } : undefined;
      const res = await world.request(method, path, token, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    // B's own connection route answers once B's OWNER is replicated: B has none (404 too), and
    // A's connection is untouched by B's attempts.
    const own = await world.request('GET', `/oauth/organizations/${orgA}/connection`, bossA);
    expect(own.body.data).toMatchObject({ name: 'Acme sign-in', slug: `org-${orgA}` });
    const listB = await world.request('GET', `/organizations/${orgB}/domains`, bossB);
    expect(listB.body.data.map((d: { id: string }) => d.id)).toEqual([domainB]);
  }, 60_000);

  it('before SSO is required: a passkey, a reset mail and the platform connection all work', async () => {
    expect((await passkeys.register(world.stack.apiKey, tokens['pat'], 'Pat key')).status).toBe(
      201,
    );
    expect((await passkeys.signIn(world.stack.apiKey)).status).toBe(200);
    expect((await resetRequest('pat@acme.test')).status).toBe(200);
    resetToken = (await smtp.nextMail('pat@acme.test', { timeoutMs: 20_000 })).headers.get(
      'x-reset-token',
    )!;
    expect(resetToken).toMatch(/^prt_/);
    const dana = await world.signIn('test', 'dana');
    expect(dana.params.get('error_code')).toBeNull();
    const platform = await world.exchange(dana.params.get('code')!, dana.pkce.verifier);
    expect(platform.status).toBe(200);
    before['danaPlatform'] = platform.body.data.attributes;
    const own = await world.signIn(`org-${orgA}`, 'dana');
    const ownSession = await world.exchange(own.params.get('code')!, own.pkce.verifier);
    expect(ownSession.status).toBe(200);
    before['danaOwn'] = ownSession.body.data.attributes;
    const pat = await passwordLogin('pat@acme.test');
    expect(pat.status).toBe(200);
    before['patPassword'] = pat.body.data.attributes;
    const boss = await passwordLogin('boss@corp.test');
    before['bossPassword'] = boss.body.data.attributes;
  }, 90_000);

  it("ends the domain's sessions its own connection did not open once SSO is required", async () => {
    const tokenInfo = (token: string) => world.request('GET', '/oauth/token/info', token);
    const refresh = (refreshToken: string) =>
      anonymous('POST', '/oauth/token/refresh', { refresh_token: refreshToken });
    const on = await world.request(
      'PATCH',
      `/organizations/${orgA}/sso_settings`,
      tokens['boss@corp.test'],
      {
        data: { type: 'sso_settings', attributes: { ssoRequired: true } },
      },
    );
    expect(on.status).toBe(200);
    const revoked = await waitFor(
      async () => {
        const res = await tokenInfo(before['patPassword'].accessToken);
        return res.status === 200 ? undefined : res;
      },
      { timeoutMs: 10_000, what: "the password session's end" },
    );
    expect(revoked.status).toBe(401);
    expect(revoked.body.errors[0].code).toBe('TOKEN_REVOKED');
    expect((await refresh(before['patPassword'].refreshToken)).status).toBe(401);
    // The platform connection's session at the domain ends too; the organization's own stays.
    expect((await tokenInfo(before['danaPlatform'].accessToken)).status).toBe(401);
    expect((await refresh(before['danaPlatform'].refreshToken)).status).toBe(401);
    expect((await tokenInfo(before['danaOwn'].accessToken)).status).toBe(200);
    const kept = await refresh(before['danaOwn'].refreshToken);
    expect(kept.status).toBe(200);
    // Other domains are untouched.
    expect((await tokenInfo(before['bossPassword'].accessToken)).status).toBe(200);
    expect((await refresh(before['bossPassword'].refreshToken)).status).toBe(200);
  }, 60_000);

  it('once SSO is required, refuses password reset, the platform connection and passkeys at the domain', async () => {
    await waitFor(async () => (await passwordLogin('pat@acme.test')).status === 403 || undefined, {
      timeoutMs: 10_000,
      what: 'ssoRequired in auth',
    });

    // Reset request: by the domain alone, the same answer with or without an account.
    const known = await resetRequest('pat@acme.test');
    const unknown = await resetRequest('nobody@acme.test');
    for (const res of [known, unknown]) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('SSO_REQUIRED');
      expect(res.body.errors[0].meta).toEqual(ssoRequired);
    }
    expect(unknown.body.errors).toEqual(known.body.errors);
    // A token mailed before no longer sets a password (and the account keeps its password).
    const reset = await anonymous('POST', '/users/password/reset', {
      email: 'pat@acme.test',
      reset_token: resetToken,
      new_password: 'another long password',
    });
    expect(reset.status).toBe(403);
    expect(reset.body.errors[0]).toMatchObject({ code: 'SSO_REQUIRED', meta: ssoRequired });
    expect((await resetRequest('boss@corp.test')).status).toBe(200);

    // The platform-wide connection: refused back at the client (RFC 6749 § 4.1.2.1), for a
    // known identity and for a new person alike; the organization's own connection signs in.
    for (const login of ['dana', 'quinn']) {
      const { params } = await world.signIn('test', login);
      expect(params.get('code')).toBeNull();
      expect(params.get('error')).toBe('access_denied');
      expect(params.get('error_code')).toBe('SSO_REQUIRED');
      expect(params.get('error_description')).toContain('acme.test');
    }
    const own = await world.signIn(`org-${orgA}`, 'dana');
    expect(own.params.get('error_code')).toBeNull();
    expect((await world.exchange(own.params.get('code')!, own.pkce.verifier)).status).toBe(200);
    const { data } = (await firstOf('member.signed_in_with_sso')).event;
    expect(data).toMatchObject({ connection: `org-${orgA}`, user: { email: 'dana@acme.test' } });

    // Passkeys: the same 403 as the password grant, once the assertion verified.
    const passkey = await passkeys.signIn(world.stack.apiKey);
    expect(passkey.status).toBe(403);
    expect(passkey.body.errors[0]).toMatchObject({ code: 'SSO_REQUIRED', meta: ssoRequired });
  }, 120_000);

  it('forgets the domain in auth when its verified record is deleted: every way in opens again', async () => {
    const removed = await world.request(
      'DELETE',
      `/organizations/${orgA}/domains/${domainA}`,
      tokens['boss@corp.test'],
    );
    expect(removed.status).toBe(204);
    const login = await waitFor(
      async () => {
        const res = await passwordLogin('pat@acme.test');
        return res.status === 403 ? undefined : res;
      },
      { timeoutMs: 10_000, what: 'the removed domain in auth' },
    );
    expect(login.status).toBe(200);
    const realm = await anonymous('GET', '/oauth/discovery?email=pat%40acme.test');
    expect(realm.body).toEqual({ data: null });
    expect((await resetRequest('pat@acme.test')).status).toBe(200);
    expect((await passkeys.signIn(world.stack.apiKey)).status).toBe(200);
    const quinn = await world.signIn('test', 'quinn');
    expect(quinn.params.get('error_code')).toBeNull();
    // The organization's own connection no longer vouches for the domain.
    const own = await world.signIn(`org-${orgA}`, 'dana');
    expect(own.params.get('error_code')).toBe('DOMAIN_NOT_VERIFIED');

    // Verifying it again while SSO is still required ends the password session opened since.
    const again = await world.addDomain(tokens['boss@corp.test'], orgA, 'acme.test');
    dns.setTxt(again.attributes.verification['name'], [again.attributes.verification['value']]);
    const path = `/organizations/${orgA}/domains/${again.id}/verify`;
    expect((await world.request('POST', path, tokens['boss@corp.test'])).status).toBe(200);
    const ended = await waitFor(
      async () => {
        const res = await world.request(
          'GET',
          '/oauth/token/info',
          login.body.data.attributes.accessToken,
        );
        return res.status === 200 ? undefined : res;
      },
      { timeoutMs: 10_000, what: 'the session ended by the domain verified again' },
    );
    expect(ended.status).toBe(401);
  }, 90_000);
});

import { waitFor } from '@wp/testing';
import type { Browser } from 'playwright-core';
import {
  ClientPage,
  clientPkce,
  launchBrowser,
  signInWithBrowser,
  TestOidcProvider,
  type ProviderAccounts,
} from './oidc-sign-in.js';
import { PlatformStack } from './stack.js';

/** The platform's client secret at the test provider (connections name it; never echoed). */
export const PROVIDER_SECRET = 'platform-secret-of-the-test-provider';

/** The password of every account the world's helpers sign up. */
export const WORLD_PASSWORD = 'a long password';

/** An organization's e-mail domain as `POST /organizations/{id}/domains` answers it. */
export interface OrganizationDomain {
  id: string;
  attributes: {
    domain: string;
    verified: boolean;
    verification: { type: string; name: string; value: string };
  };
}

/**
 * Everything a provider sign-in test needs, started once: a platform stack whose callback is
 * its own gateway, a client page, a real OpenID provider (oidc-provider) with the given
 * accounts, Chromium, the bootstrap application's redirect URI registered, and one connection
 * `test` (docs/auth.md § Sign-in with an OpenID provider, "Tests").
 */
export class OidcSignInWorld {
  private constructor(
    readonly stack: PlatformStack,
    readonly provider: TestOidcProvider,
    readonly client: ClientPage,
    readonly browser: Browser,
    readonly appId: string,
  ) {}

  /** @param env extra settings of the stack (auth reads them after its restart too) */
  static async start(
    accounts: ProviderAccounts,
    env: Record<string, string> = {},
  ): Promise<OidcSignInWorld> {
    const stack = await PlatformStack.start({ OIDC_ALLOW_INSECURE_ISSUERS: 'true', ...env });
    // The callback as browsers reach it: through this stack's gateway (known once it listens).
    stack.env.env['OIDC_CALLBACK_URL'] = `${stack.gatewayUrl}/v1/api/oauth/callback`;
    await stack.stopService('auth');
    await stack.startService('auth');
    const client = await ClientPage.start();
    const provider = await TestOidcProvider.start({
      clientId: 'platform',
      clientSecret: PROVIDER_SECRET,
      redirectUris: [`${stack.gatewayUrl}/v1/api/oauth/callback`],
      accounts,
    });
    const browser = await launchBrowser();
    const anyone = await stack.request('POST', '/v1/api/users', {
      body: { username: 'world-owner@example.com', password: 'a long password' },
    });
    const info = await stack.request('GET', '/v1/api/oauth/token/info', {
      token: anyone.body.data.attributes.accessToken,
    });
    const world = new OidcSignInWorld(stack, provider, client, browser, info.body.client_id);
    const uris = await world.admin(
      'PUT',
      `/v1/api/oauth/applications/${world.appId}/redirect_uris`,
      {
        redirectUris: [client.redirectUri],
      },
    );
    if (uris.status !== 200) throw new Error(`redirect URIs: ${uris.status}`);
    await world.createConnection('test');
    return world;
  }

  /** `{method} /v1/api{path}` with `token` as bearer (none: anonymous). */
  request(method: string, path: string, token?: string, body?: unknown) {
    return this.stack.request(method, `/v1/api${path}`, { token, body });
  }

  /** Signs `username` up with {@link WORLD_PASSWORD} (200 expected); its access token. */
  async register(username: string): Promise<string> {
    const res = await this.request('POST', '/users', undefined, {
      username,
      password: WORLD_PASSWORD,
    });
    expect(res.status).toBe(200);
    return res.body.data.attributes.accessToken as string;
  }

  /** Creates an organization owned by `token`'s account (200 expected); its id. */
  async createOrganization(token: string, name: string): Promise<string> {
    const res = await this.request('POST', '/organizations', token, {
      data: { type: 'organization', attributes: { name } },
    });
    expect(res.status).toBe(200);
    return res.body.data.id as string;
  }

  /** Adds an unverified e-mail domain to organization `org` (201 expected). */
  async addDomain(token: string, org: string, domain: string): Promise<OrganizationDomain> {
    const res = await this.request('POST', `/organizations/${org}/domains`, token, {
      data: { type: 'organization_domain', attributes: { domain } },
    });
    expect(res.status).toBe(201);
    return res.body.data as OrganizationDomain;
  }

  /**
   * An auth route of an organization once auth's membership replica knows the caller: retried
   * while it answers 404, for up to 10 s.
   */
  whenReplicated(method: string, path: string, token: string, body?: unknown) {
    return waitFor(
      async () => {
        const res = await this.request(method, path, token, body);
        return res.status === 404 ? undefined : res;
      },
      { timeoutMs: 10_000, what: `${method} ${path} past the membership replica` },
    );
  }

  /** The fields of an organization's own connection at the test provider (`PUT …/connection`). */
  organizationConnection(name = 'Acme sign-in') {
    return {
      name,
      issuer: this.provider.issuer,
      clientId: 'platform',
      clientSecret: PROVIDER_SECRET,
    };
  }

  /** An operator request (`Admin-Access`). */
  admin(method: string, path: string, body?: unknown) {
    return this.stack.request(method, path, {
      body,
      headers: { 'admin-access': this.stack.env.keys.adminAccessToken },
    });
  }

  async createConnection(slug: string): Promise<{ id: string; slug: string }> {
    const res = await this.admin('POST', '/v1/api/oauth/connections', {
      slug,
      name: `Test ${slug}`,
      issuer: this.provider.issuer,
      clientId: 'platform',
      clientSecret: PROVIDER_SECRET,
    });
    if (res.status !== 201) throw new Error(`connection ${slug}: ${res.status}`);
    return res.body.data as { id: string; slug: string };
  }

  authorizeUrl(connection: string, pkce: { challenge: string; state: string }): string {
    return `${this.stack.gatewayUrl}/v1/api/oauth/authorize?${new URLSearchParams({
      connection,
      client_id: this.appId,
      redirect_uri: this.client.redirectUri,
      state: pkce.state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }).toString()}`;
  }

  /** `POST /oauth/token` with the one-time code, as the client application does. */
  exchange(code: string, verifier: string) {
    return this.stack.request('POST', '/v1/api/oauth/token', {
      body: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: this.client.redirectUri,
        code_verifier: verifier,
      },
    });
  }

  /** The whole browser dance for `login` at the provider; where the client page was sent. */
  async signIn(connection: string, login: string) {
    const pkce = clientPkce();
    const outcome = await signInWithBrowser(
      this.browser,
      this.client,
      this.authorizeUrl(connection, pkce),
      login,
    );
    return { ...outcome, pkce };
  }

  async close(): Promise<void> {
    await this.browser.close();
    this.provider.stop();
    await this.client.close();
    await this.stack.close();
  }
}

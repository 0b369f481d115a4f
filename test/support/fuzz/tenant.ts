import { waitFor } from '@wp/testing';
import { PlatformStack } from '../stack.js';

const PASSWORD = 'fuzz password 1';

/** One user of the tenant: its id, credentials and a current access token. */
export interface TenantUser {
  id: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

/**
 * A seeded tenant on a real platform stack (test/support/stack.ts), so generated requests carry
 * ids that exist and reach the real handlers (docs/api-documentation.md § Fuzzing): `owner`
 * owns an organization with two projects (the second one is what DELETEs aim at), `member`
 * belongs to it, `login` is the account whose credentials go into login bodies (its failures
 * count against its own limit only). Invitations, a key pair, an LLM key, a Sentinel Pass,
 * wallets with money, a transfer request, a spare session and an analytics trace exist.
 */
export class FuzzTenant {
  readonly ids: Record<string, string> = {};
  owner!: TenantUser;
  member!: TenantUser;
  login!: TenantUser;
  /** `pk_…:sk_…` of the main project (analytics' Basic auth). */
  keyPair = '';
  passSecret = '';

  private constructor(readonly stack: PlatformStack) {}

  static async start(): Promise<FuzzTenant> {
    const stack = await PlatformStack.start();
    try {
      const tenant = new FuzzTenant(stack);
      await tenant.seed();
      return tenant;
    } catch (error) {
      await stack.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.stack.close();
  }

  private async call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
    expected?: number[],
  ): Promise<any> {
    const res = await this.stack.request(method, path, options);
    if (expected && !expected.includes(res.status)) {
      throw new Error(`seeding: ${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  }

  private async register(email: string): Promise<TenantUser> {
    const body = await this.call(
      'POST',
      '/v1/api/users',
      { body: { username: email, password: PASSWORD } },
      [200, 201],
    );
    const attributes = body.data.attributes;
    return {
      id: body.user_id ?? body.data.id,
      email,
      password: PASSWORD,
      token: attributes.accessToken,
      refreshToken: attributes.refreshToken,
    };
  }

  /** Logs the user in again (after a request ended its sessions or changed its password). */
  async relogin(user: TenantUser): Promise<void> {
    const res = await this.stack.request('POST', '/v1/api/oauth/token', {
      body: { username: user.email, password: user.password },
    });
    if (res.status !== 200) throw new Error(`re-login of ${user.email}: ${res.status}`);
    user.token = res.body.data.attributes.accessToken;
    user.refreshToken = res.body.data.attributes.refreshToken;
  }

  private async seed(): Promise<void> {
    this.owner = await this.register('fuzz-owner@example.com');
    this.member = await this.register('fuzz-member@example.com');
    this.login = await this.register('fuzz-login@example.com');
    const token = this.owner.token;
    const ids = this.ids;
    ids['userId'] = this.member.id;

    const org = await this.call(
      'POST',
      '/v1/api/organizations',
      { token, body: { data: { type: 'organization', attributes: { name: 'Fuzz Org' } } } },
      [200],
    );
    ids['organizationId'] = org.data.id;
    const O = `/v1/api/organizations/${ids['organizationId']}`;
    for (const [key, name] of [
      ['projectId', 'Fuzz Project'],
      ['spareProjectId', 'Fuzz Spare'],
    ]) {
      const project = await this.call(
        'POST',
        `${O}/projects`,
        { token, body: { data: { type: 'project', attributes: { name } } } },
        [201],
      );
      ids[key] = project.data.id;
    }
    const P = `${O}/projects/${ids['projectId']}`;
    await this.call(
      'POST',
      `${O}/add_user`,
      {
        token,
        body: {
          data: { type: 'users', attributes: { email: this.member.email, role: 'MEMBER' } },
        },
      },
      [201],
    );
    await this.call(
      'POST',
      `${P}/add_user`,
      {
        token,
        body: {
          data: { type: 'users', attributes: { email: this.member.email } },
          role: 'MEMBER',
          organization_role: 'MEMBER',
        },
      },
      [201],
    );
    const invitation = await this.call(
      'POST',
      `${O}/invitations`,
      {
        token,
        body: {
          data: { type: 'membershipInvitation', attributes: { email: 'fuzz-invitee@example.com' } },
        },
      },
      [201],
    );
    ids['invitationId'] = invitation.data.id;
    const projectInvitation = await this.call(
      'POST',
      `${P}/invitations`,
      {
        token,
        body: {
          data: {
            type: 'membershipInvitation',
            attributes: { email: 'fuzz-project-invitee@example.com' },
          },
        },
      },
      [201],
    );
    ids['projectInvitationId'] = projectInvitation.data.id;
    const pair = await this.call(
      'POST',
      `${P}/api_keys`,
      { token, body: { data: { attributes: { note: 'fuzz' } } } },
      [201],
    );
    ids['apiKeyId'] = pair.data.id;
    const llm = await this.call(
      'POST',
      `${P}/llm_api_keys`,
      {
        token,
        body: {
          data: {
            type: 'llm_api_keys',
            attributes: { provider: 'openai', secretKey: 'sk-fuzz-0123456789' },
          },
        },
      },
      [201],
    );
    ids['llmApiKeyId'] = llm.data.id;
    const pass = await this.call(
      'POST',
      `${P}/sentinel_passes`,
      { token, body: { sentinelPass: { title: 'Fuzz agent' } } },
      [201],
    );
    ids['passId'] = pass.data.id;
    const endpoint = await this.call(
      'POST',
      `${O}/webhook_endpoints`,
      {
        token,
        body: {
          data: {
            type: 'webhook_endpoints',
            attributes: { url: 'https://93.184.215.14/fuzz', eventTypes: ['ping'] },
          },
        },
      },
      [201],
    );
    ids['endpointId'] = endpoint.data.id;
    const ping = await this.call(
      'POST',
      `${O}/webhook_endpoints/${endpoint.data.id}/test`,
      { token },
      [202],
    );
    ids['deliveryId'] = ping.data.id;
    this.passSecret = pass.meta.secret;
    const secrets = await this.call('GET', `${P}?secret=true`, { token }, [200]);
    this.keyPair = `${secrets.meta.secrets.publicKey}:${secrets.meta.secrets.secretKey}`;

    await this.seedWallets();
    await this.seedSessionAndTrace();
    await this.seedSignIn();
  }

  /**
   * Provider sign-in and passkeys: the bootstrap Api-Key's client application (its token names
   * it), an OIDC connection, and well-formed ids that name no passkey, linked identity or
   * organization domain (those need a browser, a provider or DNS; a well-formed unknown id
   * reaches the handler's 404).
   */
  private async seedSignIn(): Promise<void> {
    const ids = this.ids;
    const info = await this.call(
      'GET',
      '/v1/api/oauth/token/info',
      { token: this.owner.token },
      [200],
    );
    ids['appId'] = info.client_id;
    const connection = await this.call(
      'POST',
      '/v1/api/oauth/connections',
      {
        headers: { 'admin-access': this.stack.env.keys.adminAccessToken },
        body: {
          slug: 'fuzz',
          name: 'Fuzz provider',
          issuer: 'https://idp.example.com',
          clientId: 'platform',
          clientSecret: 'fuzz-connection-secret',
        },
      },
      [201],
    );
    ids['connectionId'] = connection.data.id;
    ids['passkeyId'] = '00000000-0000-4000-8000-00000000f001';
    ids['identityId'] = '00000000-0000-4000-8000-00000000f002';
    // An organization's e-mail domain: an unknown id reaches the 404 without a DNS lookup.
    ids['domainId'] = '00000000-0000-4000-8000-00000000f003';
  }

  private async seedWallets(): Promise<void> {
    const token = this.owner.token;
    const ids = this.ids;
    const wallets = await waitFor(
      async () => {
        const org = await this.call('GET', '/v1/api/wallets?entity_type=organization', { token });
        const user = await this.call('GET', '/v1/api/wallets?entity_type=user', { token });
        const orgWallet = (org?.data ?? []).find((w: any) => w.entity_id === ids['organizationId']);
        return orgWallet && user?.data?.[0] && { org: orgWallet, user: user.data[0] };
      },
      { timeoutMs: 15_000, what: 'the organization and personal wallets' },
    );
    ids['addressHash'] = wallets.org.address_hash;
    ids['ownerWallet'] = wallets.user.address_hash;
    const admin = { 'admin-access': this.stack.env.keys.adminAccessToken };
    for (const address of [ids['addressHash'], ids['ownerWallet']]) {
      await this.call(
        'POST',
        `/v1/api/wallets/${address}/credits`,
        { token, headers: admin, body: { credit: { amount: 1_000_000, description: 'fuzz' } } },
        [201],
      );
    }
    const transfer = await this.call(
      'POST',
      '/v1/api/wallet_transfers',
      {
        token,
        body: {
          transfer: { from_wallet: ids['ownerWallet'], to_wallet: ids['addressHash'], amount: 1 },
        },
      },
      [201],
    );
    ids['transferId'] = transfer.transfer?.id ?? transfer.data?.id;
  }

  private async seedSessionAndTrace(): Promise<void> {
    const ids = this.ids;
    // A second session of the owner: what `DELETE /users/me/sessions/{sessionId}` ends.
    const spare = await this.call(
      'POST',
      '/v1/api/oauth/token',
      { body: { username: this.owner.email, password: this.owner.password } },
      [200],
    );
    const sessions = await this.call(
      'GET',
      '/v1/api/users/me/sessions',
      { token: this.owner.token },
      [200],
    );
    const list: any[] = sessions.data ?? [];
    const other = list.find((s) => s.attributes?.current !== true) ?? list[0];
    ids['sessionId'] = other?.id ?? spare.data.id;

    const basic = `Basic ${Buffer.from(this.keyPair).toString('base64')}`;
    ids['traceId'] = 'fuzz-trace-1';
    await waitFor(
      async () => {
        const res = await this.stack.request('POST', '/api/public/ingestion', {
          headers: { authorization: basic },
          body: {
            batch: [
              {
                id: 'fuzz-event-1',
                timestamp: new Date().toISOString(),
                type: 'trace-create',
                body: { id: ids['traceId'], name: 'fuzz' },
              },
            ],
          },
        });
        return res.status === 207 && res;
      },
      { timeoutMs: 15_000, what: 'analytics to know the project key pair' },
    );
    await waitFor(
      async () =>
        (
          await this.stack.request('GET', `/api/public/traces/${ids['traceId']}`, {
            headers: { authorization: basic },
          })
        ).status === 200,
      { timeoutMs: 15_000, what: 'the trace' },
    );
  }
}

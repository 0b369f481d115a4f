import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * A Sentinel Pass's `permissions` through the gateway (docs/org.md § Sentinel Pass, § Agent
 * tokens): any strings within the bounds are stored and echoed as sent, on create and PUT;
 * what an agent may do comes only from the names the platform knows — `read` (every `*:read`),
 * `write` (`read` plus moving its project's money), the fine names — and an unknown string
 * grants nothing. Checked on org (project, passes) and wallet (reads, debits, transfers), with
 * tokens exchanged on auth.
 */
describe('Sentinel Pass permissions through the gateway', () => {
  let stack: PlatformStack;
  let owner: { id: string; token: string };
  let orgId: string;
  let projectId: string;
  let projectWallet: string;
  let personalWallet: string;

  const S = () => `/v1/api/organizations/${orgId}/projects/${projectId}/sentinel_passes`;
  const P = () => `/v1/api/organizations/${orgId}/projects/${projectId}`;

  beforeAll(async () => {
    stack = await PlatformStack.start();
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: 'permissions-owner@example.com', password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    owner = {
      id: registered.body.data.id,
      token: registered.body.data.attributes.accessToken,
    };
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Permissions' } } },
    });
    orgId = org.body.data.id;
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name: 'Agents' } } },
    });
    expect(project.status).toBe(201);
    projectId = project.body.data.id;
    const opened = await waitFor(
      async () => {
        const res = await stack.request('POST', '/v1/api/wallets/create_entity_wallet', {
          token: owner.token,
          body: {
            entity_wallet: {
              entity_type: 'project',
              entity_id: projectId,
              entity_name: 'Agents',
              metadata: { organization_id: Number(orgId) },
            },
          },
        });
        return res.status === 201 ? res : undefined;
      },
      { timeoutMs: 8000, what: 'the project wallet' },
    );
    projectWallet = opened.body.wallet.address_hash;
    const credited = await stack.request('POST', `/v1/api/wallets/${projectWallet}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 100, description: 'seed' } },
    });
    expect(credited.status).toBe(201);
    const personal = await waitFor(
      async () => {
        const res = await stack.request('GET', '/v1/api/wallets?entity_type=user', {
          token: owner.token,
        });
        return res.body.data?.[0]?.address_hash as string | undefined;
      },
      { timeoutMs: 8000, what: 'the personal wallet' },
    );
    personalWallet = personal;
  });
  afterAll(() => stack.close());

  const createPass = async (title: string, permissions: unknown) => {
    const res = await stack.request('POST', S(), {
      token: owner.token,
      body: { sentinelPass: { title, permissions } },
    });
    return res;
  };

  /** A pass with `permissions` and an agent token for it (auth learns of the pass by event). */
  const agentWith = async (permissions: string[]): Promise<string> => {
    const created = await createPass(`bot ${permissions.join(' ')}`, permissions);
    expect(created.status).toBe(201);
    const passId = created.body.data.id as string;
    const exchanged = await waitFor(
      async () => {
        const res = await stack.request('POST', '/v1/api/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: passId,
            client_secret: created.body.meta.secret,
          },
        });
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: 8000, what: 'auth knowing the pass' },
    );
    return exchanged.body.data.attributes.accessToken as string;
  };

  const as = (token: string) => ({
    project: () => stack.request('GET', P(), { token }),
    passes: () => stack.request('GET', S(), { token }),
    rename: () =>
      stack.request('PATCH', P(), {
        token,
        body: { data: { type: 'project', attributes: { name: 'Renamed by an agent' } } },
      }),
    wallet: () => stack.request('GET', `/v1/api/wallets/${projectWallet}`, { token }),
    debit: () =>
      stack.request('POST', `/v1/api/wallets/${projectWallet}/debits`, {
        token,
        body: { debit: { amount: 1, description: 'agent spend' } },
      }),
    transact: () =>
      stack.request('POST', '/v1/api/wallets/transact', {
        token,
        body: {
          transaction: {
            from_wallet: projectWallet,
            to_wallet: personalWallet,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: 2,
          },
        },
      }),
  });
  const balance = async () => {
    const res = await stack.request('GET', `/v1/api/wallets/${projectWallet}`, {
      token: owner.token,
    });
    return res.body.wallet.balance as number;
  };
  const forbidden = (res: { status: number; body: any }) => [
    res.status,
    res.body.errors?.[0]?.code,
  ];

  it('stores and echoes any permissions within the bounds unchanged, on create and on PUT', async () => {
    const sent = ['write', 'repo:*', 'read', 'files.write', 'read', 'Custom-Scope_1'];
    const created = await createPass('Echo', sent);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.metadata.permissions).toEqual(sent);
    const id = created.body.data.id;
    const read = await stack.request('GET', `${S()}/${id}`, { token: owner.token });
    expect(read.body.sentinelPass.attributes.metadata.permissions).toEqual(sent);
    const replaced = [
      'bogus',
      'read',
      'a'.repeat(100),
      ...Array.from({ length: 47 }, (_, i) => `p${i}`),
    ];
    const put = await stack.request('PUT', `${S()}/${id}`, {
      token: owner.token,
      body: { sentinelPass: { permissions: replaced } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes.metadata.permissions).toEqual(replaced);
    const listed = await stack.request('GET', S(), { token: owner.token });
    const pass = listed.body.data.find((p: { id: string }) => p.id === id);
    expect(pass.attributes.metadata.permissions).toEqual(replaced);
  });

  it('refuses permissions outside the bounds with 400 at /sentinelPass/permissions', async () => {
    for (const permissions of [
      ['has space'],
      [''],
      ['x'.repeat(101)],
      ['semi;colon'],
      [7],
      'read',
      Array.from({ length: 51 }, () => 'read'),
    ]) {
      const res = await createPass('Bounded', permissions);
      expect({ permissions, status: res.status }).toEqual({ permissions, status: 400 });
      expect(res.body.errors[0].source.pointer).toBe('/sentinelPass/permissions');
    }
  });

  it('lets a pass with ["read"] read its project, passes and wallet, but not write or move money', async () => {
    const agent = as(await agentWith(['read']));
    expect((await agent.project()).status).toBe(200);
    expect((await agent.passes()).status).toBe(200);
    expect((await agent.wallet()).status).toBe(200);
    const before = await balance();
    expect(forbidden(await agent.debit())).toEqual([403, 'AGENT_FORBIDDEN']);
    expect(forbidden(await agent.transact())).toEqual([403, 'AGENT_FORBIDDEN']);
    expect(forbidden(await agent.rename())).toEqual([403, 'AGENT_FORBIDDEN']);
    expect(await balance()).toBe(before);
    const project = await agent.project();
    expect(project.body.data.meta?.can ?? project.body.meta?.can).toMatchObject({
      project: { read: true, update: false },
      wallet: { read: true, debit: false, transact: false },
    });
  });

  it('lets a pass with ["write"] read and move its project’s money, but not manage the project', async () => {
    const agent = as(await agentWith(['write']));
    expect((await agent.project()).status).toBe(200);
    const before = await balance();
    expect((await agent.debit()).status).toBe(201);
    expect((await agent.transact()).status).toBe(201);
    expect(await balance()).toBe(before - 3);
    expect(forbidden(await agent.rename())).toEqual([403, 'AGENT_FORBIDDEN']);
  });

  it('grants nothing for a pass with ["bogus"]', async () => {
    const agent = as(await agentWith(['bogus']));
    const before = await balance();
    for (const res of [
      await agent.project(),
      await agent.passes(),
      await agent.wallet(),
      await agent.debit(),
      await agent.transact(),
      await agent.rename(),
    ]) {
      expect(forbidden(res)).toEqual([403, 'AGENT_FORBIDDEN']);
    }
    expect(await balance()).toBe(before);
  });
});

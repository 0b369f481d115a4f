import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

const PASSES = 3;

interface Agent {
  passId: string;
  key: string;
  token: string;
}

/**
 * A revoked, deleted, rotated or narrowed Sentinel Pass is refused everywhere before the withdrawing
 * request answers (docs/architecture.md § Withdrawn permissions at once): org deny-lists the
 * agent tokens of the ended credential epoch in the command's transaction, so the very next
 * request with such a token is 401 `TOKEN_REVOKED` on wallet, org and auth — whether or not
 * auth has consumed `org.sentinel_pass.changed`, even while auth is stopped; auth refuses the
 * key at once too (the epoch is deny-listed). Tokens of the next epoch (after activate, with the
 * rotated key) work: org and auth count the same epochs.
 */
describe('Sentinel Pass withdrawn at once', () => {
  let stack: PlatformStack;
  let owner: string;
  let orgId: string;
  let projectId: string;
  let projectWallet: string;

  const S = () => `/v1/api/organizations/${orgId}/projects/${projectId}/sentinel_passes`;
  const P = () => `/v1/api/organizations/${orgId}/projects/${projectId}`;

  beforeAll(async () => {
    stack = await PlatformStack.start();
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: 'revocation-owner@example.com', password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    owner = registered.body.data.attributes.accessToken;
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner,
      body: { data: { type: 'organization', attributes: { name: 'Revocations' } } },
    });
    orgId = org.body.data.id;
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner,
      body: { data: { type: 'project', attributes: { name: 'Agents' } } },
    });
    expect(project.status).toBe(201);
    projectId = project.body.data.id;
    const opened = await waitFor(
      async () => {
        const res = await stack.request('POST', '/v1/api/wallets/create_entity_wallet', {
          token: owner,
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
      token: owner,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 1000, description: 'seed' } },
    });
    expect(credited.status).toBe(201);
  });
  afterAll(() => stack?.close());

  /** An agent token for `passId` once auth has the pass (it learns of it by event). */
  const exchange = (passId: string, key: string) =>
    waitFor(
      async () => {
        const res = await stack.request('POST', '/v1/api/oauth/token', {
          body: { grant_type: 'client_credentials', client_id: passId, client_secret: key },
        });
        return res.status === 200 ? (res.body.data.attributes.accessToken as string) : undefined;
      },
      { timeoutMs: 10_000, what: 'auth exchanging the key' },
    );
  /** One exchange, no waiting: must be refused. */
  const expectKeyRefused = async (passId: string, key: string) => {
    const res = await stack.request('POST', '/v1/api/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: passId, client_secret: key },
    });
    expect([res.status, res.body.errors?.[0]?.code]).toEqual([401, 'INVALID_CLIENT']);
  };
  const newAgent = async (title: string): Promise<Agent> => {
    const created = await stack.request('POST', S(), {
      token: owner,
      body: { sentinelPass: { title, permissions: ['write'] } },
    });
    expect(created.status).toBe(201);
    const passId = created.body.data.id as string;
    const key = created.body.meta.secret as string;
    return { passId, key, token: await exchange(passId, key) };
  };
  const balance = async () => {
    const res = await stack.request('GET', `/v1/api/wallets/${projectWallet}`, { token: owner });
    return res.body.wallet.balance as number;
  };
  /** The agent's requests on wallet (read, debit), org (its project) and, when up, auth. */
  const uses = (token: string, withAuth = true) =>
    Promise.all([
      stack.request('GET', `/v1/api/wallets/${projectWallet}`, { token }),
      stack.request('POST', `/v1/api/wallets/${projectWallet}/debits`, {
        token,
        body: { debit: { amount: 1, description: 'agent spend' } },
      }),
      stack.request('GET', P(), { token }),
      ...(withAuth ? [stack.request('GET', '/v1/api/oauth/token/info', { token })] : []),
    ]);
  const expectWorks = async (token: string, withAuth = true) => {
    const answers = await uses(token, withAuth);
    expect(answers.map((res) => res.status)).toEqual([200, 201, 200, 200].slice(0, answers.length));
  };
  const expectRefused = async (token: string, withAuth = true) => {
    const before = await balance();
    const answers = await uses(token, withAuth);
    for (const res of answers) {
      expect([res.status, res.body.errors?.[0]?.code]).toEqual([401, 'TOKEN_REVOKED']);
    }
    expect(await balance()).toBe(before);
  };

  it('refuses the agent token on wallet, org and auth right after revoke, and a token after activate works', async () => {
    for (let i = 0; i < PASSES; i++) {
      const agent = await newAgent(`revoked ${i}`);
      await expectWorks(agent.token);
      const revoked = await stack.request('POST', `${S()}/${agent.passId}/revoke`, {
        token: owner,
      });
      expect(revoked.status).toBe(200);
      await expectRefused(agent.token);
      await expectKeyRefused(agent.passId, agent.key);
      const activated = await stack.request('POST', `${S()}/${agent.passId}/activate`, {
        token: owner,
      });
      expect(activated.status).toBe(200);
      await expectWorks(await exchange(agent.passId, agent.key));
      await expectRefused(agent.token);
    }
  });

  it('refuses the agent token right after rotate_key; a token of the new key works', async () => {
    for (let i = 0; i < PASSES; i++) {
      const agent = await newAgent(`rotated ${i}`);
      await expectWorks(agent.token);
      const rotated = await stack.request('POST', `${S()}/${agent.passId}/rotate_key`, {
        token: owner,
      });
      expect(rotated.status).toBe(200);
      await expectRefused(agent.token);
      await expectKeyRefused(agent.passId, agent.key);
      const renewed = await exchange(agent.passId, rotated.body.meta.secret as string);
      await expectWorks(renewed);
      // a second rotation ends the second epoch too
      const again = await stack.request('POST', `${S()}/${agent.passId}/rotate_key`, {
        token: owner,
      });
      expect(again.status).toBe(200);
      await expectRefused(renewed);
    }
  });

  it('refuses the agent token right after a PUT narrows its permissions; a new token carries what is left', async () => {
    for (let i = 0; i < PASSES; i++) {
      const agent = await newAgent(`narrowed ${i}`);
      await expectWorks(agent.token);
      const narrowed = await stack.request('PUT', `${S()}/${agent.passId}`, {
        token: owner,
        body: { sentinelPass: { permissions: ['read'] } },
      });
      expect(narrowed.status).toBe(200);
      await expectRefused(agent.token);
      const reader = await exchange(agent.passId, agent.key);
      expect(
        (await stack.request('GET', `/v1/api/wallets/${projectWallet}`, { token: reader })).status,
      ).toBe(200);
      const spend = await stack.request('POST', `/v1/api/wallets/${projectWallet}/debits`, {
        token: reader,
        body: { debit: { amount: 1, description: 'agent spend' } },
      });
      expect([spend.status, spend.body.errors?.[0]?.code]).toEqual([403, 'AGENT_FORBIDDEN']);
      // Widening ends nothing: the read-only token keeps working.
      const widened = await stack.request('PUT', `${S()}/${agent.passId}`, {
        token: owner,
        body: { sentinelPass: { permissions: ['read', 'write'] } },
      });
      expect(widened.status).toBe(200);
      expect((await stack.request('GET', P(), { token: reader })).status).toBe(200);
    }
  });

  it('refuses the agent token right after the pass is deleted', async () => {
    for (let i = 0; i < PASSES; i++) {
      const agent = await newAgent(`deleted ${i}`);
      await expectWorks(agent.token);
      const deleted = await stack.request('DELETE', `${S()}/${agent.passId}`, { token: owner });
      expect(deleted.status).toBe(204);
      await expectRefused(agent.token);
      await expectKeyRefused(agent.passId, agent.key);
    }
  });

  it('refuses the agent tokens of every pass of a project right after the project is deleted', async () => {
    const doomed = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner,
      body: { data: { type: 'project', attributes: { name: 'Doomed' } } },
    });
    expect(doomed.status).toBe(201);
    const doomedId = doomed.body.data.id as string;
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await stack.request(
        'POST',
        `/v1/api/organizations/${orgId}/projects/${doomedId}/sentinel_passes`,
        { token: owner, body: { sentinelPass: { title: `doomed ${i}`, permissions: ['read'] } } },
      );
      expect(created.status).toBe(201);
      tokens.push(await exchange(created.body.data.id, created.body.meta.secret));
    }
    const info = (token: string) => stack.request('GET', '/v1/api/oauth/token/info', { token });
    for (const token of tokens) expect((await info(token)).status).toBe(200);
    const deleted = await stack.request(
      'DELETE',
      `/v1/api/organizations/${orgId}/projects/${doomedId}`,
      {
        token: owner,
      },
    );
    expect(deleted.status).toBe(204);
    for (const token of tokens) {
      for (const res of [await info(token), await stack.request('GET', P(), { token })]) {
        expect([res.status, res.body.errors?.[0]?.code]).toEqual([401, 'TOKEN_REVOKED']);
      }
    }
  });

  it('refuses the agent token on wallet and org after revoke, rotate_key or delete while auth is stopped', async () => {
    const revoked = await newAgent('auth down, revoked');
    const rotated = await newAgent('auth down, rotated');
    const deleted = await newAgent('auth down, deleted');
    for (const agent of [revoked, rotated, deleted]) await expectWorks(agent.token);
    await stack.stopService('auth');
    try {
      const answers = await Promise.all([
        stack.request('POST', `${S()}/${revoked.passId}/revoke`, { token: owner }),
        stack.request('POST', `${S()}/${rotated.passId}/rotate_key`, { token: owner }),
        stack.request('DELETE', `${S()}/${deleted.passId}`, { token: owner }),
      ]);
      expect(answers.map((res) => res.status)).toEqual([200, 200, 204]);
      for (const agent of [revoked, rotated, deleted]) await expectRefused(agent.token, false);
    } finally {
      await stack.startService('auth');
    }
    // once auth is back and has the events, the tokens stay refused there too
    for (const agent of [revoked, rotated, deleted]) await expectRefused(agent.token);
  });
});

import { waitFor } from '@wp/testing';
import type { PlatformStack } from './stack.js';

export interface Account {
  id: string;
  email: string;
  token: string;
}

/**
 * Requests of the tests about who may move a tenant's money (test/e2e/withdrawn-permissions,
 * test/e2e/deleted-project-wallets) over one stack: accounts, organizations and projects with a
 * funded wallet, role changes, transfers. `baseUrl` sends a request to another process (a
 * replica started with `PlatformStack.startReplica`).
 */
export function walletJourneys(stack: () => PlatformStack) {
  let counter = 0;
  const signUp = async (label: string): Promise<Account> => {
    const email = `${label}-${++counter}@withdrawn.example.com`;
    const res = await stack().request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    expect(res.status).toBe(200);
    return { id: res.body.data.id, email, token: res.body.data.attributes.accessToken };
  };
  const userWallet = (who: Account) =>
    waitFor(async () => {
      const res = await stack().request('GET', '/v1/api/wallets?entity_type=user', {
        token: who.token,
      });
      return (res.body?.data as { address_hash: string }[] | undefined)?.[0]?.address_hash;
    });
  const credit = async (address: string, by: Account, amount: number) => {
    const res = await stack().request('POST', `/v1/api/wallets/${address}/credits`, {
      token: by.token,
      headers: { 'admin-access': stack().env.keys.adminAccessToken },
      body: { credit: { amount, description: 'seed', reference_id: `seed-${address}` } },
    });
    expect(res.status).toBe(201);
  };
  /** An organization of `owner` with `admin` as ADMIN and its funded operating wallet. */
  const organization = async (owner: Account, admin: Account) => {
    const org = await stack().request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Withdrawn' } } },
    });
    expect(org.status).toBe(200);
    const orgId = org.body.data.id as string;
    const added = await stack().request('POST', `/v1/api/organizations/${orgId}/add_user`, {
      token: owner.token,
      body: { data: { type: 'users', attributes: { email: admin.email, role: 'ADMIN' } } },
    });
    expect(added.status).toBe(201);
    const address = await waitFor(async () => {
      const res = await stack().request('GET', '/v1/api/wallets?entity_type=organization', {
        token: owner.token,
      });
      return (res.body?.data as { address_hash: string; entity_id: string }[] | undefined)?.find(
        (w) => w.entity_id === orgId,
      )?.address_hash;
    });
    await credit(address, owner, 10_000);
    return { orgId, address };
  };
  const setRole = (orgId: string, by: Account, who: Account, role: string, baseUrl?: string) =>
    stack().request('PATCH', `/v1/api/organizations/${orgId}/members/${who.id}/role`, {
      token: by.token,
      body: { role },
      baseUrl,
    });
  const transact = (who: Account, from: string, to: string, baseUrl?: string) =>
    stack().request('POST', '/v1/api/wallets/transact', {
      token: who.token,
      baseUrl,
      body: {
        transaction: {
          from_wallet: from,
          to_wallet: to,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 1,
          description: 'after the withdrawal',
        },
      },
    });
  /** A project of the organization and its wallet, funded with `amount`; the owner opens it. */
  const projectWallet = async (owner: Account, orgId: string, amount = 1000) => {
    const project = await stack().request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name: 'Funded' } } },
    });
    expect(project.status).toBe(201);
    const projectId = project.body.data.id as string;
    const opened = await waitFor(async () => {
      const res = await stack().request('POST', '/v1/api/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: projectId,
            entity_name: 'Funded project',
            metadata: { organization_id: Number(orgId) },
          },
        },
      });
      return res.status === 201 ? res : undefined;
    });
    const address = opened.body.wallet.address_hash as string;
    await credit(address, owner, amount);
    return { projectId, address };
  };
  return { signUp, userWallet, credit, organization, projectWallet, setRole, transact };
}

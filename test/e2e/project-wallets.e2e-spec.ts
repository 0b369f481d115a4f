import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * Project wallets across org and wallet, all through the gateway (access
 * rules in docs/wallet.md § Who may do what, § Read models, § Closed wallets): org announces a
 * project (`org.project.created`) and its members (`org.membership.changed` with `projectId`);
 * wallet lets a project ADMIN open the project's wallet and its members read it; org learns of
 * the wallet (`wallet.wallet.created` → `hasWallet`). Denied access and removal in org take the
 * wallet away (404); restoring gives it back; deleting the project (`org.project.deleted`)
 * closes the wallet: gone from lists, still readable with `status: closed` by the organization's
 * OWNER, 404 for former project members, no money in or out.
 */
describe('project wallets: org events drive wallet access', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack.close());

  interface Account {
    id: string;
    email: string;
    token: string;
  }
  let counter = 0;
  const signUp = async (label: string): Promise<Account> => {
    const email = `${label}-${++counter}@project-wallets.example.com`;
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    return {
      id: registered.body.data.id as string,
      email,
      token: registered.body.data.attributes.accessToken as string,
    };
  };
  const wallet = (who: Account, address: string) =>
    stack.request('GET', `/v1/api/wallets/${address}`, { token: who.token });
  const projectWallets = async (who: Account) => {
    const res = await stack.request('GET', '/v1/api/wallets?entity_type=project', {
      token: who.token,
    });
    expect(res.status).toBe(200);
    return (res.body.data as { address_hash: string }[]).map((w) => w.address_hash);
  };
  /** Waits until `who` gets `status` for the wallet (events travel through NATS). */
  const untilWalletAnswers = (who: Account, address: string, status: number, what: string) =>
    waitFor(async () => (await wallet(who, address)).status === status, { timeoutMs: 8000, what });

  it('follows the project through creation, membership, denial, removal and deletion', async () => {
    const owner = await signUp('owner');
    const admin = await signUp('project-admin');
    const member = await signUp('project-member');
    const bystander = await signUp('org-member');
    const outsider = await signUp('outsider');

    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Wallet Projects' } } },
    });
    expect(org.status).toBe(200);
    const orgId = org.body.data.id as string;
    const P = `/v1/api/organizations/${orgId}/projects`;
    for (const user of [admin, member, bystander]) {
      const added = await stack.request('POST', `/v1/api/organizations/${orgId}/add_user`, {
        token: owner.token,
        body: { data: { type: 'users', attributes: { email: user.email, role: 'MEMBER' } } },
      });
      expect(added.status).toBe(201);
    }
    const created = await stack.request('POST', P, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name: 'Funded' } } },
    });
    expect(created.status).toBe(201);
    const projectId = created.body.data.id as string;
    for (const [user, role] of [
      [admin, 'ADMIN'],
      [member, 'MEMBER'],
    ] as const) {
      const added = await stack.request('POST', `${P}/${projectId}/add_user`, {
        token: owner.token,
        body: {
          data: { type: 'users', attributes: { email: user.email } },
          role,
          project_only: true,
        },
      });
      expect(added.status).toBe(201);
    }

    // A project ADMIN (an organization MEMBER) opens the project's wallet once wallet knows the
    // project and the membership from org's events.
    const open = (who: Account = admin) =>
      stack.request('POST', '/v1/api/wallets/create_entity_wallet', {
        token: who.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: projectId,
            entity_name: 'Funded project',
            metadata: { organization_id: Number(orgId) },
          },
        },
      });
    const opened = await waitFor(
      async () => {
        const res = await open();
        return res.status === 201 ? res : undefined;
      },
      { timeoutMs: 8000, what: 'the project ADMIN opening the project wallet' },
    );
    const address = opened.body.wallet.address_hash as string;
    // without `purpose`, the contract's default `general`, as for every entity type
    expect(opened.body.wallet).toMatchObject({
      entity_type: 'project',
      entity_id: projectId,
      purpose: 'general',
      status: 'active',
    });
    expect((await open()).status).toBe(409); // one wallet per (project, purpose)

    // Readers: the project's members and the organization's OWNER; not an organization MEMBER
    // without the project, nor an outsider (404, like an unknown wallet).
    expect(await projectWallets(member)).toEqual([address]);
    expect(await projectWallets(owner)).toContain(address);
    expect((await wallet(member, address)).status).toBe(200);
    expect((await wallet(bystander, address)).status).toBe(404);
    expect(await projectWallets(bystander)).not.toContain(address);
    expect((await wallet(outsider, address)).status).toBe(404);
    // A project MEMBER reads but does not control: 403 on a debit.
    const credited = await stack.request('POST', `/v1/api/wallets/${address}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 10, description: 'seed' } },
    });
    expect(credited.status).toBe(201);
    const debit = (who: Account) =>
      stack.request('POST', `/v1/api/wallets/${address}/debits`, {
        token: who.token,
        body: { debit: { amount: 1, description: 'spend' } },
      });
    const refused = await debit(member);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await debit(admin)).status).toBe(201);

    // org learns of the wallet (wallet.wallet.created): hasWallet and the has_wallet filter.
    await waitFor(
      async () => {
        const res = await stack.request('GET', `${P}/${projectId}`, { token: owner.token });
        return res.body.data.attributes.hasWallet === true;
      },
      { timeoutMs: 8000, what: 'org marking the project as having a wallet' },
    );
    const withWallet = await stack.request('GET', `${P}?has_wallet=true`, { token: owner.token });
    expect(withWallet.body.data.map((p: { id: string }) => p.id)).toEqual([projectId]);

    // deny_access in org → 404 in wallet; restore_access → readable again.
    const denied = await stack.request('POST', `${P}/${projectId}/deny_access/${member.id}`, {
      token: owner.token,
    });
    expect(denied.status).toBe(200);
    await untilWalletAnswers(member, address, 404, 'the denied member losing the wallet');
    expect(await projectWallets(member)).toEqual([]);
    const restored = await stack.request('POST', `${P}/${projectId}/restore_access/${member.id}`, {
      token: owner.token,
    });
    expect(restored.status).toBe(200);
    await untilWalletAnswers(member, address, 200, 'the restored member reading the wallet again');

    // Removal from the project → 404, and no more control for the former ADMIN.
    const removed = await stack.request('DELETE', `${P}/${projectId}/remove_user/${admin.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    await untilWalletAnswers(admin, address, 404, 'the removed ADMIN losing the wallet');
    expect((await debit(admin)).status).toBe(404);
    expect(await projectWallets(admin)).toEqual([]);

    // Deleting the project closes its wallet (docs/wallet.md § Closed wallets).
    const deleted = await stack.request('DELETE', `${P}/${projectId}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    await waitFor(
      async () => {
        const res = await wallet(owner, address);
        return res.status === 200 && res.body.wallet.status === 'closed' ? res : undefined;
      },
      { timeoutMs: 8000, what: 'the project wallet closing' },
    );
    const closed = await wallet(owner, address);
    expect(closed.body.wallet).toMatchObject({ status: 'closed', balance: 9 });
    expect(await projectWallets(owner)).not.toContain(address);
    await untilWalletAnswers(member, address, 404, 'former project members losing the wallet');
    const late = await stack.request('POST', `/v1/api/wallets/${address}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 1, description: 'late' } },
    });
    expect(late.status).toBe(422);
    expect(late.body.errors[0].code).toBe('WALLET_CLOSED');
    // A deleted project gets no new wallet, not even from the organization's OWNER.
    expect((await open(owner)).status).toBe(404);
  });

  it('defaults create_entity_wallet purpose to general for every entity type; the organization wallet from the event stays operating', async () => {
    const owner = await signUp('purpose-owner');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Purposes' } } },
    });
    expect(org.status).toBe(200);
    const orgId = org.body.data.id as string;
    const operating = await waitFor(
      async () => {
        const res = await stack.request('GET', '/v1/api/wallets?entity_type=organization', {
          token: owner.token,
        });
        return res.body.data?.find((w: { entity_id: string }) => w.entity_id === orgId);
      },
      { timeoutMs: 8000, what: 'the operating wallet from org.organization.created' },
    );
    expect(operating.purpose).toBe('operating');
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name: 'Defaults' } } },
    });
    expect(project.status).toBe(201);
    const create = (entity_type: string, entity_id: string) =>
      stack.request('POST', '/v1/api/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type,
            entity_id,
            entity_name: `${entity_type} wallet`,
            metadata: { organization_id: Number(orgId) },
          },
        },
      });
    const organizationWallet = await create('organization', orgId);
    expect(organizationWallet.status).toBe(201);
    expect(organizationWallet.body.wallet.purpose).toBe('general');
    const projectWallet = await waitFor(
      async () => {
        const res = await create('project', project.body.data.id as string);
        return res.status === 201 ? res : undefined;
      },
      { timeoutMs: 8000, what: 'wallet knowing the project' },
    );
    expect(projectWallet.body.wallet.purpose).toBe('general');
    // the personal wallet (opened at activation) is `general` already: a second one is 409
    const personal = await create('user', owner.id);
    expect(personal.status).toBe(409);
    expect(personal.body.errors[0].code).toBe('WALLET_ALREADY_EXISTS');
  });

  it('passes org ETags and 304s through the real gateway', async () => {
    const owner = await signUp('etag-owner');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Tagged' } } },
    });
    const url = `/v1/api/organizations/${org.body.data.id as string}`;
    const first = await stack.request('GET', url, { token: owner.token });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await stack.request('GET', url, {
      token: owner.token,
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers.get('etag')).toBe(etag);
  });
});

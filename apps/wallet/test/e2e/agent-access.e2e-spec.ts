import { randomUUID } from 'node:crypto';
import { IS_PUBLIC, NO_API_KEY } from '@wp/http';
import { AGENT_ACCESS } from '@wp/security';
import { auditRoutes, waitFor } from '@wp/testing';
import {
  WalletTestContext,
  type TestOrganization,
  type TestUser,
} from '../support/wallet-test-context.js';

/**
 * Sentinel Pass agent tokens on the wallet service (docs/wallet.md § Agent tokens): an
 * agent is confined to its project. It sees the project's wallets (entity `project`, id = its
 * project) and its own agent wallet, and its pass's permissions decide what it may do there
 * through the project permission table: `wallets:read` list/read/history, `wallets:debit`
 * debits, `wallets:transact` transact. A wallet outside its project answers 404 exactly as an
 * unknown one; a route with no project scope answers 403 `AGENT_FORBIDDEN`. Refused requests
 * move nothing (ledger audit), and every agent request is recorded as activity.
 */
describe('wallet: agent (Sentinel Pass) tokens', () => {
  let ctx: WalletTestContext;
  let owner: TestUser;
  let otherOwner: TestUser;
  let org: TestOrganization;
  let otherOrg: TestOrganization;
  let project: number;
  let sibling: number;
  let foreign: number;
  /** Project wallets: the agent's project, another project of its org, a project elsewhere. */
  let own: string;
  let siblingWallet: string;
  let foreignWallet: string;
  const passId = randomUUID();

  const agent = (permissions: string[], pass = passId) =>
    ctx.token(pass, { agent: { organizationId: org.id, projectId: project, permissions } });
  const READ = () => agent(['wallets:read']);
  const DEBIT = () => agent(['wallets:debit']);
  const TRANSACT = () => agent(['wallets:transact']);
  const NONE = () => agent(['projects:read', 'sentinel_passes:read']);

  async function projectWallet(by: TestUser, organizationId: number, projectId: number) {
    const res = await ctx.request('POST', '/wallets/create_entity_wallet', {
      token: by.token,
      body: {
        entity_wallet: {
          entity_type: 'project',
          entity_id: String(projectId),
          entity_name: `Project ${projectId}`,
          metadata: { organization_id: organizationId },
        },
      },
    });
    if (res.status !== 201) throw new Error(`project wallet: ${JSON.stringify(res.body)}`);
    return res.body.wallet.address_hash as string;
  }

  const balance = async (address: string, by: TestUser = owner) =>
    (await ctx.walletOf(by, address)).balances['CREDITS']?.available ?? 0;
  const journalEntries = async () =>
    (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'))[0].n;
  const code = (res: { body: any }) => res.body?.errors?.[0]?.code as string | undefined;

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
    owner = await ctx.newUser();
    otherOwner = await ctx.newUser();
    org = await ctx.newOrganization(owner, 'Agents Inc');
    otherOrg = await ctx.newOrganization(otherOwner, 'Elsewhere');
    project = await ctx.newProject(org.id, 'Bots');
    sibling = await ctx.newProject(org.id, 'Sibling');
    foreign = await ctx.newProject(otherOrg.id, 'Foreign');
    own = await projectWallet(owner, org.id, project);
    siblingWallet = await projectWallet(owner, org.id, sibling);
    foreignWallet = await projectWallet(otherOwner, otherOrg.id, foreign);
    for (const wallet of [own, siblingWallet, foreignWallet]) await ctx.credit(wallet, 100);
  }, 60_000);
  afterAll(() => ctx.close());

  it('opens exactly the agent routes of docs/wallet.md § Agent tokens (a route added to it fails here)', () => {
    const opened = auditRoutes(ctx.app, {
      isPublic: IS_PUBLIC,
      noApiKey: NO_API_KEY,
      agentAccess: AGENT_ACCESS,
    })
      .filter((r) => r.agentAccess)
      .map((r) => r.route);
    expect(opened).toEqual([
      'GET /wallets',
      'GET /wallets/:addressHash',
      'GET /wallets/:addressHash/transactions',
      'POST /wallets/:addressHash/debits',
      'POST /wallets/transact',
      'PUT /wallets/:addressHash',
    ]);
  });

  describe('wallets:read', () => {
    it('lists exactly the wallets of its project', async () => {
      const res = await ctx.request('GET', '/wallets', { token: await READ() });
      expect(res.status).toBe(200);
      expect(res.body.data.map((w: { address_hash: string }) => w.address_hash)).toEqual([own]);
      const projects = await ctx.request('GET', '/wallets?entity_type=project', {
        token: await READ(),
      });
      expect(projects.body.data.map((w: { address_hash: string }) => w.address_hash)).toEqual([
        own,
      ]);
      const orgs = await ctx.request('GET', '/wallets?entity_type=organization', {
        token: await READ(),
      });
      expect(orgs.status).toBe(200);
      expect(orgs.body.data).toEqual([]);
    });

    it('reads its project wallet and its history', async () => {
      const one = await ctx.request('GET', `/wallets/${own}`, { token: await READ() });
      expect(one.status).toBe(200);
      expect(one.body.wallet).toMatchObject({
        address_hash: own,
        entity_type: 'project',
        entity_id: String(project),
      });
      const history = await ctx.request('GET', `/wallets/${own}/transactions`, {
        token: await READ(),
      });
      expect(history.status).toBe(200);
      expect(history.body.data[0]).toMatchObject({ type: 'credit', amount: 100 });
    });

    it('answers 403 AGENT_FORBIDDEN without wallets:read on its own project wallets', async () => {
      for (const path of ['/wallets', `/wallets/${own}`, `/wallets/${own}/transactions`]) {
        const res = await ctx.request('GET', path, { token: await NONE() });
        expect([path, res.status, code(res)]).toEqual([path, 403, 'AGENT_FORBIDDEN']);
      }
    });

    it('answers 404 for wallets of another project, another organization, users and organizations, as for an unknown address', async () => {
      const unknown = await ctx.request('GET', `/wallets/0x${'0'.repeat(40)}`, {
        token: await READ(),
      });
      expect(unknown.status).toBe(404);
      for (const address of [siblingWallet, foreignWallet, org.wallet, owner.wallet]) {
        for (const path of [`/wallets/${address}`, `/wallets/${address}/transactions`]) {
          const res = await ctx.request('GET', path, { token: await agent(['wallets:transact']) });
          expect([path, res.status, res.body]).toEqual([path, 404, unknown.body]);
        }
      }
    });
  });

  describe('wallets:debit', () => {
    it('debits the project wallet exactly once per reference; without the permission nothing moves', async () => {
      const before = await balance(own);
      const entries = await journalEntries();
      const body = { debit: { amount: 7, description: 'model usage', reference_id: 'run-1' } };
      for (const token of [await READ(), await NONE()]) {
        const refused = await ctx.request('POST', `/wallets/${own}/debits`, { token, body });
        expect(refused.status).toBe(403);
        expect(code(refused)).toBe('AGENT_FORBIDDEN');
      }
      expect(await balance(own)).toBe(before);
      expect(await journalEntries()).toBe(entries);

      const first = await ctx.request('POST', `/wallets/${own}/debits`, {
        token: await DEBIT(),
        body,
      });
      expect(first.status).toBe(201);
      expect(first.body.debit).toMatchObject({
        from_wallet: own,
        amount: 7,
        reference_id: 'run-1',
      });
      const replay = await ctx.request('POST', `/wallets/${own}/debits`, {
        token: await DEBIT(),
        body,
      });
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first.body);
      expect(await balance(own)).toBe(before - 7);
      expect(await journalEntries()).toBe(entries + 1);
      expect((await ctx.audit()).ok).toBe(true);
    });

    it('answers 404 and moves nothing when debiting a wallet outside its project', async () => {
      const entries = await journalEntries();
      for (const address of [siblingWallet, foreignWallet, org.wallet, owner.wallet]) {
        const res = await ctx.request('POST', `/wallets/${address}/debits`, {
          token: await agent(['wallets:transact']),
          body: { debit: { amount: 1, description: 'not mine' } },
        });
        expect([address, res.status]).toEqual([address, 404]);
      }
      expect(await balance(siblingWallet)).toBe(100);
      expect(await balance(foreignWallet, otherOwner)).toBe(100);
      expect(await journalEntries()).toBe(entries);
    });
  });

  describe('wallets:transact', () => {
    const transaction = (from: string, to: string, amount = 3) => ({
      transaction: {
        from_wallet: from,
        to_wallet: to,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount,
      },
    });

    it('moves money out of the project wallet with wallets:transact only', async () => {
      const before = await balance(own);
      const siblingBefore = await balance(siblingWallet);
      for (const token of [await READ(), await DEBIT()]) {
        const refused = await ctx.request('POST', '/wallets/transact', {
          token,
          body: transaction(own, siblingWallet),
        });
        expect(refused.status).toBe(403);
        expect(code(refused)).toBe('AGENT_FORBIDDEN');
      }
      expect(await balance(own)).toBe(before);
      const moved = await ctx.request('POST', '/wallets/transact', {
        token: await TRANSACT(),
        body: transaction(own, siblingWallet),
      });
      expect(moved.status).toBe(201);
      expect(await balance(own)).toBe(before - 3);
      expect(await balance(siblingWallet)).toBe(siblingBefore + 3);
      expect((await ctx.audit()).ok).toBe(true);
    });

    it('answers 404 and moves nothing from a wallet outside its project', async () => {
      const entries = await journalEntries();
      for (const from of [siblingWallet, foreignWallet, org.wallet]) {
        const res = await ctx.request('POST', '/wallets/transact', {
          token: await TRANSACT(),
          body: transaction(from, own),
        });
        expect([from, res.status]).toEqual([from, 404]);
      }
      expect(await journalEntries()).toBe(entries);
    });
  });

  describe('everything else', () => {
    it('answers 403 AGENT_FORBIDDEN on editing its project wallet and 404 on editing another', async () => {
      const body = { wallet: { description: 'agent was here' } };
      const mine = await ctx.request('PUT', `/wallets/${own}`, { token: await TRANSACT(), body });
      expect(mine.status).toBe(403);
      expect(code(mine)).toBe('AGENT_FORBIDDEN');
      const other = await ctx.request('PUT', `/wallets/${siblingWallet}`, {
        token: await TRANSACT(),
        body,
      });
      expect(other.status).toBe(404);
      expect((await ctx.walletOf(owner, own)).description).not.toBe('agent was here');
    });

    it('answers 403 AGENT_FORBIDDEN on routes with no project scope, and changes nothing', async () => {
      const entries = await journalEntries();
      const wallets = (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM wallet'))[0].n;
      const routes: [string, string, unknown?, Record<string, string>?][] = [
        [
          'POST',
          '/wallets/create_entity_wallet',
          {
            entity_wallet: {
              entity_type: 'agent',
              entity_id: passId,
              entity_name: 'Self-made',
            },
          },
        ],
        [
          'POST',
          `/wallets/${own}/credits`,
          { credit: { amount: 5, description: 'free money' } },
          { 'admin-access': ctx.adminAccessToken },
        ],
        ['GET', '/wallet_transfers'],
        ['GET', '/wallet_transfers/pending'],
        [
          'POST',
          '/wallet_transfers',
          {
            transfer: {
              from_wallet: own,
              to_wallet: siblingWallet,
              amount: 1,
              asset: 'CREDITS',
              description: 'x',
            },
          },
        ],
        ['POST', `/wallet_transfers/${randomUUID()}/reject`],
      ];
      for (const [method, path, body, headers] of routes) {
        const res = await ctx.request(method, path, { token: await TRANSACT(), body, headers });
        expect([method, path, res.status, code(res)]).toEqual([
          method,
          path,
          403,
          'AGENT_FORBIDDEN',
        ]);
      }
      expect(await journalEntries()).toBe(entries);
      expect((await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM wallet'))[0].n).toBe(
        wallets,
      );
    });

    it('refuses an agent token that is not bound to a project (403)', async () => {
      const res = await ctx.request('GET', `/wallets/${own}`, {
        token: await ctx.token(passId, { type: 'agent' }),
      });
      expect(res.status).toBe(403);
      expect(code(res)).toBe('AGENT_FORBIDDEN');
    });

    it('still lets users do what their roles allow', async () => {
      const res = await ctx.request('GET', `/wallets/${siblingWallet}`, { token: owner.token });
      expect(res.status).toBe(200);
      const stranger = await ctx.request('GET', `/wallets/${own}`, { token: otherOwner.token });
      expect(stranger.status).toBe(404);
    });
  });

  it('records every agent request, granted or refused, as activity of the pass', async () => {
    const probe = randomUUID();
    const calls: [string, string, string, number][] = [
      ['GET', '/wallets', await agent(['wallets:read'], probe), 200],
      ['GET', `/wallets/${own}`, await agent([], probe), 403],
      ['GET', `/wallets/${foreignWallet}`, await agent(['wallets:read'], probe), 404],
      ['GET', '/wallet_transfers', await agent(['wallets:read'], probe), 403],
    ];
    for (const [method, path, token, status] of calls) {
      expect((await ctx.request(method, path, { token })).status).toBe(status);
    }
    const recorded = await waitFor(
      async () => {
        const entries = (await ctx.enqueued('wallet.activity.recorded'))
          .flatMap((p) => p.entries)
          .filter((e) => e.agentUserId === probe);
        return entries.length >= calls.length ? entries : undefined;
      },
      { timeoutMs: 10_000, what: 'agent activity in the outbox' },
    );
    expect(recorded).toHaveLength(calls.length);
    expect(recorded.map((e) => [e.method, e.statusCode, e.activityType]).sort()).toEqual(
      calls
        .map(([method, , , status]) => [method, status, status < 400 ? 'api_request' : 'error'])
        .sort(),
    );
    expect(recorded.map((e) => e.endpoint)).toContain('/v1/api/wallets/:addressHash');
    expect(recorded.every((e) => e.service === 'wallet')).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets ({wallet_url}): GET /wallets, GET/PUT /wallets/{addressHash},
 * POST /wallets/create_entity_wallet; docs/architecture.md § Identity and access (visibility from
 * the membership read model, 404 for foreign wallets) and
 * docs/architecture.md § Decisions where the contract is silent (wallet record). Memberships arrive
 * as org's events.
 */
describe('wallets', () => {
  let ctx: WalletTestContext;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
    owner = await ctx.newUser();
    stranger = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  const list = async (user: { token: string }, query = '') => {
    const res = await ctx.request('GET', `/wallets${query}`, { token: user.token });
    expect(res.status).toBe(200);
    return res.body.data as { address_hash: string; entity_type: string; entity_id: string }[];
  };
  const addresses = async (user: { token: string }, query = '') =>
    (await list(user, query)).map((w) => w.address_hash);

  describe('authentication', () => {
    it('answers 401 without a bearer token and 403 without an Api-Key', async () => {
      expect((await ctx.request('GET', '/wallets')).status).toBe(401);
      const noKey = await ctx.request('GET', '/wallets', {
        token: owner.token,
        headers: { 'api-key': '' },
      });
      expect(noKey.status).toBe(403);
      expect(noKey.body.errors[0].code).toBe('API_KEY_MISSING');
      const malformed = await ctx.request('GET', '/wallets', { token: 'not a token!' });
      expect(malformed.status).toBe(401);
    });
  });

  describe('GET /wallets', () => {
    it('opens a personal wallet on activation and answers the documented record', async () => {
      const [wallet] = await list(owner, '?entity_type=user');
      expect(wallet).toEqual({
        address_hash: owner.wallet,
        entity_type: 'user',
        entity_id: owner.id,
        entity_name: owner.email,
        purpose: 'general',
        currency: 'CREDITS',
        description: '',
        metadata: {},
        status: 'active',
        balance: 0,
        balances: { CREDITS: { available: 0, held: 0 } },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(owner.wallet).toMatch(/^0x[0-9a-f]{40}$/);
    });

    it('opens the personal wallet once, however often activation is redelivered', async () => {
      const user = await ctx.newUser();
      await ctx.publish('auth.user.activated', {
        userId: user.id,
        email: user.email,
        phone: null,
        firstName: '',
        lastName: '',
        status: 'active',
      });
      expect(await addresses(user)).toEqual([user.wallet]);
    });

    it('filters by entity_type and refuses an unknown one with 400', async () => {
      const org = await ctx.newOrganization(owner, 'Filter Inc');
      expect(await addresses(owner, '?entity_type=organization')).toContain(org.wallet);
      expect(await addresses(owner, '?entity_type=organization')).not.toContain(owner.wallet);
      expect(await addresses(owner, '?entity_type=project')).not.toContain(org.wallet);
      const bad = await ctx.request('GET', '/wallets?entity_type=planet', { token: owner.token });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].source).toEqual({ parameter: 'entity_type' });
    });

    it('shows an organization wallet to its members only, and hides it again on removal', async () => {
      const org = await ctx.newOrganization(owner, 'Members Ltd');
      const viewer = await ctx.newUser();
      expect(await addresses(viewer)).not.toContain(org.wallet);
      await ctx.setOrganizationRole(org.id, viewer, 'VIEWER');
      expect(await addresses(viewer)).toContain(org.wallet);
      await ctx.setOrganizationRole(org.id, viewer, null);
      expect(await addresses(viewer)).not.toContain(org.wallet);
      expect(await addresses(stranger)).not.toContain(org.wallet);
    });

    it('ignores a stale membership redelivery (older version)', async () => {
      const org = await ctx.newOrganization(owner, 'Versions');
      const member = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, member, 'MEMBER'); // version 1
      await ctx.setOrganizationRole(org.id, member, null); // version 2
      await ctx.publish('org.membership.changed', {
        organizationId: org.id,
        projectId: null,
        userId: member.id,
        role: 'ADMIN',
        accessDenied: false,
        version: 1,
      });
      expect(await addresses(member)).not.toContain(org.wallet);
    });

    it('shows project wallets by effective project role: org admins, project members, not denied ones', async () => {
      const org = await ctx.newOrganization(owner, 'Projects');
      const project = await ctx.newProject(org.id);
      const created = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: String(project),
            entity_name: 'Project funds',
            metadata: { organization_id: org.id },
          },
        },
      });
      expect(created.status).toBe(201);
      const wallet = created.body.wallet.address_hash as string;

      const orgMember = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, orgMember, 'MEMBER');
      expect(await addresses(orgMember)).not.toContain(wallet);

      const projectMember = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, projectMember, 'MEMBER');
      await ctx.setProjectRole(org.id, project, projectMember, 'MEMBER');
      expect(await addresses(projectMember, '?entity_type=project')).toEqual([wallet]);

      await ctx.setProjectRole(org.id, project, projectMember, 'MEMBER', true);
      expect(await addresses(projectMember)).not.toContain(wallet);
      const denied = await ctx.request('GET', `/wallets/${wallet}`, { token: projectMember.token });
      expect(denied.status).toBe(404);

      const orgAdmin = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, orgAdmin, 'ADMIN');
      expect(await addresses(orgAdmin)).toContain(wallet);
    });

    it('closes and hides a project wallet when the project is deleted; money stays in the ledger', async () => {
      const org = await ctx.newOrganization(owner, 'Deleting');
      const project = await ctx.newProject(org.id);
      const created = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: String(project),
            entity_name: 'Doomed',
            metadata: { organization_id: String(org.id) },
          },
        },
      });
      const wallet = created.body.wallet.address_hash as string;
      await ctx.credit(wallet, 5);
      await ctx.publish('org.project.deleted', { organizationId: org.id, projectId: project });
      expect(await addresses(owner)).not.toContain(wallet);
      const record = await ctx.walletOf(owner, wallet);
      expect(record).toMatchObject({ status: 'closed', balance: 5 });
      const transfer = await ctx.request('POST', '/wallets/transact', {
        token: owner.token,
        body: {
          transaction: {
            from_wallet: wallet,
            to_wallet: owner.wallet,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: 1,
          },
        },
      });
      expect(transfer.status).toBe(422);
      expect(transfer.body.errors[0].code).toBe('WALLET_CLOSED');
      const into = await ctx.request('POST', `/wallets/${wallet}/credits`, {
        token: owner.token,
        headers: { 'admin-access': ctx.adminAccessToken },
        body: { credit: { amount: 1, description: 'late' } },
      });
      expect(into.status).toBe(422);
      expect((await ctx.audit()).ok).toBe(true);
    });

    it('lets project admins open agent wallets; project members see them; the agent (wallets:read) sees its own', async () => {
      const org = await ctx.newOrganization(owner, 'Agents');
      const project = await ctx.newProject(org.id);
      const passId = randomUUID();
      await ctx.publish('org.sentinel_pass.changed', {
        passId,
        organizationId: org.id,
        projectId: project,
        title: 'Bot',
        active: true,
        deleted: false,
        keyHash: null,
        expiresAt: null,
        allowedReferers: [],
        scopes: [],
        permissions: [],
        version: 1,
      });
      const projectAdmin = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, projectAdmin, 'MEMBER');
      await ctx.setProjectRole(org.id, project, projectAdmin, 'ADMIN');
      const viewer = await ctx.newUser();
      await ctx.setProjectRole(org.id, project, viewer, 'VIEWER');

      const body = {
        entity_wallet: { entity_type: 'agent', entity_id: passId, entity_name: 'Bot wallet' },
      };
      const byViewer = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: viewer.token,
        body,
      });
      expect(byViewer.status).toBe(403);
      expect(byViewer.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const created = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: projectAdmin.token,
        body,
      });
      expect(created.status).toBe(201);
      const wallet = created.body.wallet.address_hash as string;
      expect(await addresses(viewer, '?entity_type=agent')).toEqual([wallet]);
      expect(await addresses(stranger)).not.toContain(wallet);

      const agentToken = ctx.token(passId, {
        agent: { organizationId: org.id, projectId: project, permissions: ['wallets:read'] },
      });
      expect(await addresses({ token: agentToken })).toEqual([wallet]);
      const debit = await ctx.request('POST', `/wallets/${wallet}/debits`, {
        token: agentToken,
        body: { debit: { amount: 1, description: 'agent spend' } },
      });
      expect(debit.status).toBe(403);
      expect(debit.body.errors[0].code).toBe('AGENT_FORBIDDEN');
      const unbound = await ctx.request('GET', '/wallets', {
        token: ctx.token(passId, { type: 'agent' }),
      });
      expect(unbound.status).toBe(403);

      await ctx.publish('org.sentinel_pass.changed', {
        passId,
        organizationId: org.id,
        projectId: project,
        title: 'Bot',
        active: false,
        deleted: true,
        keyHash: null,
        expiresAt: null,
        allowedReferers: [],
        scopes: [],
        permissions: [],
        version: 2,
      });
      expect(await addresses(viewer)).not.toContain(wallet);
    });
  });

  describe('GET /wallets/{addressHash}', () => {
    it('answers the wallet with an ETag; If-None-Match answers 304; a movement changes the tag', async () => {
      const first = await ctx.request('GET', `/wallets/${owner.wallet}`, { token: owner.token });
      expect(first.status).toBe(200);
      expect(first.body.wallet.address_hash).toBe(owner.wallet);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await ctx.request('GET', `/wallets/${owner.wallet}?cache_bust=1732262400`, {
        token: owner.token,
        headers: { 'if-none-match': etag! },
      });
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      await ctx.credit(owner.wallet, 1);
      const changed = await ctx.request('GET', `/wallets/${owner.wallet}`, {
        token: owner.token,
        headers: { 'if-none-match': etag! },
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(changed.body.wallet.balance).toBe(1);
    });

    it('accepts the address in upper case', async () => {
      const res = await ctx.request('GET', `/wallets/0x${owner.wallet.slice(2).toUpperCase()}`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.wallet.address_hash).toBe(owner.wallet);
    });

    it('answers 404 for a foreign wallet and for an unknown one, alike', async () => {
      const foreign = await ctx.request('GET', `/wallets/${owner.wallet}`, {
        token: stranger.token,
      });
      const unknown = await ctx.request('GET', `/wallets/0x${'a'.repeat(40)}`, {
        token: stranger.token,
      });
      expect(foreign.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.body.errors[0].code).toBe('WALLET_NOT_FOUND');
    });

    it.each(['0x123', 'abc', `0x${'g'.repeat(40)}`, `${'a'.repeat(42)}`])(
      'refuses the malformed address %s with 400',
      async (address) => {
        const res = await ctx.request('GET', `/wallets/${address}`, { token: owner.token });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source).toEqual({ parameter: 'addressHash' });
      },
    );

    it('refuses a malformed cache_bust with 400', async () => {
      const res = await ctx.request(
        'GET',
        `/wallets/${owner.wallet}?cache_bust=${'x'.repeat(65)}`,
        {
          token: owner.token,
        },
      );
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: 'cache_bust' });
    });
  });

  describe('PUT /wallets/{addressHash}', () => {
    it('updates entity_name and description for the owner', async () => {
      const res = await ctx.request('PUT', `/wallets/${owner.wallet}`, {
        token: owner.token,
        body: { wallet: { entity_name: 'Savings', description: 'rainy days', purpose: 'ignored' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.wallet).toMatchObject({
        entity_name: 'Savings',
        description: 'rainy days',
        purpose: 'general',
      });
      expect((await ctx.walletOf(owner, owner.wallet)).entity_name).toBe('Savings');
    });

    it('lets an organization ADMIN edit, answers 403 to a MEMBER and 404 to a stranger', async () => {
      const org = await ctx.newOrganization(owner, 'Editable');
      const admin = await ctx.newUser();
      const member = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, admin, 'ADMIN');
      await ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const put = (user: TestUser) =>
        ctx.request('PUT', `/wallets/${org.wallet}`, {
          token: user.token,
          body: { wallet: { description: `by ${user.id}` } },
        });
      expect((await put(admin)).status).toBe(200);
      const byMember = await put(member);
      expect(byMember.status).toBe(403);
      expect(byMember.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      expect((await put(stranger)).status).toBe(404);
      expect((await ctx.walletOf(owner, org.wallet)).description).toBe(`by ${admin.id}`);
    });

    it.each([
      ['no wallet', {}, '/wallet'],
      ['a string', { wallet: 'x' }, '/wallet'],
      ['no field', { wallet: {} }, '/wallet'],
      ['a blank name', { wallet: { entity_name: '   ' } }, '/wallet/entity_name'],
      ['a name over 200', { wallet: { entity_name: 'x'.repeat(201) } }, '/wallet/entity_name'],
      ['a numeric description', { wallet: { description: 5 } }, '/wallet/description'],
    ])('refuses %s with 400 at its pointer', async (_label, body, pointer) => {
      const res = await ctx.request('PUT', `/wallets/${owner.wallet}`, {
        token: owner.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });
  });

  describe('POST /wallets/create_entity_wallet', () => {
    const userEntity = { entity_type: 'user', entity_id: '1', entity_name: 'n' };

    it('opens a second wallet for the caller, announces it, and answers 201 with the record', async () => {
      const res = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'user',
            entity_id: owner.id.toUpperCase(),
            entity_name: 'Holiday fund',
            purpose: 'savings',
            currency: 'USD',
            metadata: { color: 'blue' },
          },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.wallet).toMatchObject({
        entity_type: 'user',
        entity_id: owner.id,
        purpose: 'savings',
        currency: 'USD',
        metadata: { color: 'blue' },
        balance: 0,
        balances: { USD: { available: 0, held: 0 } },
      });
      const announced = await ctx.enqueued('wallet.wallet.created');
      expect(announced).toContainEqual({
        addressHash: res.body.wallet.address_hash,
        entityType: 'user',
        entityId: owner.id,
        purpose: 'savings',
        currency: 'USD',
      });
    });

    it('answers 409 with the existing address for a second wallet of the same purpose', async () => {
      const res = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: { entity_wallet: { entity_type: 'user', entity_id: owner.id, entity_name: 'Again' } },
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({
        code: 'WALLET_ALREADY_EXISTS',
        meta: { address_hash: owner.wallet },
      });
    });

    it('answers 404 for another user and for an organization the caller is not in', async () => {
      const other = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: stranger.token,
        body: {
          entity_wallet: { entity_type: 'user', entity_id: owner.id, entity_name: 'Mine now' },
        },
      });
      expect(other.status).toBe(404);
      expect(other.body.errors[0].code).toBe('ENTITY_NOT_FOUND');
      const org = await ctx.newOrganization(owner, 'Closed shop');
      const notMember = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: stranger.token,
        body: {
          entity_wallet: {
            entity_type: 'organization',
            entity_id: String(org.id),
            entity_name: 'x',
            purpose: 'payroll',
          },
        },
      });
      expect(notMember.status).toBe(404);
    });

    it('lets an organization OWNER open another purpose, and refuses a MEMBER with 403', async () => {
      const org = await ctx.newOrganization(owner, 'Purposes');
      const member = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const body = {
        entity_wallet: {
          entity_type: 'organization',
          entity_id: String(org.id),
          entity_name: 'Payroll',
          purpose: 'payroll',
        },
      };
      const byMember = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: member.token,
        body,
      });
      expect(byMember.status).toBe(403);
      const byOwner = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body,
      });
      expect(byOwner.status).toBe(201);
      expect(await addresses(member)).toContain(byOwner.body.wallet.address_hash);
    });

    it('opens project wallets with the default purpose general, checking metadata.organization_id', async () => {
      const org = await ctx.newOrganization(owner, 'Funds');
      const project = await ctx.newProject(org.id);
      const create = (metadata: unknown) =>
        ctx.request('POST', '/wallets/create_entity_wallet', {
          token: owner.token,
          body: {
            entity_wallet: {
              entity_type: 'project',
              entity_id: String(project),
              entity_name: 'Funds',
              metadata,
            },
          },
        });
      const missing = await create({});
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].source.pointer).toBe('/entity_wallet/metadata/organization_id');
      const wrong = await create({ organization_id: org.id + 1 });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors[0].code).toBe('ORGANIZATION_MISMATCH');
      const ok = await create({ organization_id: org.id });
      expect(ok.status).toBe(201);
      expect(ok.body.wallet).toMatchObject({
        purpose: 'general',
        metadata: { organization_id: org.id },
      });
      // project_funds (or any purpose) only when asked for: a second wallet of the project
      const funds = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: String(project),
            entity_name: 'Funds',
            purpose: 'project_funds',
            metadata: { organization_id: org.id },
          },
        },
      });
      expect(funds.status).toBe(201);
      expect(funds.body.wallet.purpose).toBe('project_funds');
      const unknownProject = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: '999999',
            entity_name: 'Ghost',
            metadata: { organization_id: org.id },
          },
        },
      });
      expect(unknownProject.status).toBe(404);
    });

    it('refuses an asset that is not offered with 422', async () => {
      const res = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: {
          entity_wallet: {
            entity_type: 'user',
            entity_id: owner.id,
            entity_name: 'Gold',
            purpose: 'gold',
            currency: 'GOLD',
          },
        },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'UNKNOWN_ASSET',
        source: { pointer: '/entity_wallet/currency' },
      });
    });

    it.each([
      ['no entity_wallet', {}, '/entity_wallet'],
      ['no entity_type', { entity_id: 'x', entity_name: 'n' }, '/entity_wallet/entity_type'],
      [
        'an unknown entity_type',
        { ...userEntity, entity_type: 'planet' },
        '/entity_wallet/entity_type',
      ],
      ['a malformed entity_id', { ...userEntity, entity_id: 'me' }, '/entity_wallet/entity_id'],
      ['no entity_name', { entity_type: 'user', entity_id: '1' }, '/entity_wallet/entity_name'],
      ['a malformed purpose', { ...userEntity, purpose: 'Big One' }, '/entity_wallet/purpose'],
      ['a lower-case currency', { ...userEntity, currency: 'usd' }, '/entity_wallet/currency'],
      ['array metadata', { ...userEntity, metadata: [1] }, '/entity_wallet/metadata'],
      [
        'metadata over 8 KB',
        { ...userEntity, metadata: { big: 'x'.repeat(9000) } },
        '/entity_wallet/metadata',
      ],
    ])('refuses %s with 400 at its pointer', async (label, entity, pointer) => {
      const res = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: owner.token,
        body: label === 'no entity_wallet' ? entity : { entity_wallet: entity },
      });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { useWalletWorld, walletListHelpers } from '../support/wallet-listing.js';

/**
 * docs/api.md § Wallets ({wallet_url}): GET /wallets (authentication, visibility);
 * docs/architecture.md § Identity and access (visibility from the membership read model, 404 for
 * foreign wallets): personal wallets opened on activation, organization, project (incl. denied
 * access) and agent wallets, stale membership events, closing on project deletion. Memberships
 * arrive as org's events.
 */
describe('wallets', () => {
  const world = useWalletWorld();

  const { list, addresses } = walletListHelpers(() => world.ctx);

  describe('authentication', () => {
    it('answers 401 without a bearer token and 403 without an Api-Key', async () => {
      expect((await world.ctx.request('GET', '/wallets')).status).toBe(401);
      const noKey = await world.ctx.request('GET', '/wallets', {
        token: world.owner.token,
        headers: { 'api-key': '' },
      });
      expect(noKey.status).toBe(403);
      expect(noKey.body.errors[0].code).toBe('API_KEY_MISSING');
      const malformed = await world.ctx.request('GET', '/wallets', { token: 'not a token!' });
      expect(malformed.status).toBe(401);
    });
  });

  describe('GET /wallets', () => {
    it('opens a personal wallet on activation and answers the documented record', async () => {
      const [wallet] = await list(world.owner, '?entity_type=user');
      expect(wallet).toEqual({
        address_hash: world.owner.wallet,
        entity_type: 'user',
        entity_id: world.owner.id,
        entity_name: world.owner.email,
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
      expect(world.owner.wallet).toMatch(/^0x[0-9a-f]{40}$/);
    });

    it('opens the personal wallet once, however often activation is redelivered', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.publish('auth.user.activated', {
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
      const org = await world.ctx.newOrganization(world.owner, 'Filter Inc');
      expect(await addresses(world.owner, '?entity_type=organization')).toContain(org.wallet);
      expect(await addresses(world.owner, '?entity_type=organization')).not.toContain(
        world.owner.wallet,
      );
      expect(await addresses(world.owner, '?entity_type=project')).not.toContain(org.wallet);
      const bad = await world.ctx.request('GET', '/wallets?entity_type=planet', {
        token: world.owner.token,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].source).toEqual({ parameter: 'entity_type' });
    });

    it('shows an organization wallet to its members only, and hides it again on removal', async () => {
      const org = await world.ctx.newOrganization(world.owner, 'Members Ltd');
      const viewer = await world.ctx.newUser();
      expect(await addresses(viewer)).not.toContain(org.wallet);
      await world.ctx.setOrganizationRole(org.id, viewer, 'VIEWER');
      expect(await addresses(viewer)).toContain(org.wallet);
      await world.ctx.setOrganizationRole(org.id, viewer, null);
      expect(await addresses(viewer)).not.toContain(org.wallet);
      expect(await addresses(world.stranger)).not.toContain(org.wallet);
    });

    it('ignores a stale membership redelivery (older version)', async () => {
      const org = await world.ctx.newOrganization(world.owner, 'Versions');
      const member = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, member, 'MEMBER'); // version 1
      await world.ctx.setOrganizationRole(org.id, member, null); // version 2
      await world.ctx.publish('org.membership.changed', {
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
      const org = await world.ctx.newOrganization(world.owner, 'Projects');
      const project = await world.ctx.newProject(org.id);
      const created = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
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

      const orgMember = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, orgMember, 'MEMBER');
      expect(await addresses(orgMember)).not.toContain(wallet);

      const projectMember = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, projectMember, 'MEMBER');
      await world.ctx.setProjectRole(org.id, project, projectMember, 'MEMBER');
      expect(await addresses(projectMember, '?entity_type=project')).toEqual([wallet]);

      await world.ctx.setProjectRole(org.id, project, projectMember, 'MEMBER', true);
      expect(await addresses(projectMember)).not.toContain(wallet);
      const denied = await world.ctx.request('GET', `/wallets/${wallet}`, {
        token: projectMember.token,
      });
      expect(denied.status).toBe(404);

      const orgAdmin = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, orgAdmin, 'ADMIN');
      expect(await addresses(orgAdmin)).toContain(wallet);
    });

    it('closes and hides a project wallet when the project is deleted; money stays in the ledger', async () => {
      const org = await world.ctx.newOrganization(world.owner, 'Deleting');
      const project = await world.ctx.newProject(org.id);
      const created = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
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
      await world.ctx.credit(wallet, 5);
      await world.ctx.publish('org.project.deleted', {
        organizationId: org.id,
        projectId: project,
      });
      expect(await addresses(world.owner)).not.toContain(wallet);
      const record = await world.ctx.walletOf(world.owner, wallet);
      expect(record).toMatchObject({ status: 'closed', balance: 5 });
      const transfer = await world.ctx.request('POST', '/wallets/transact', {
        token: world.owner.token,
        body: {
          transaction: {
            from_wallet: wallet,
            to_wallet: world.owner.wallet,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: 1,
          },
        },
      });
      expect(transfer.status).toBe(422);
      expect(transfer.body.errors[0].code).toBe('WALLET_CLOSED');
      const into = await world.ctx.request('POST', `/wallets/${wallet}/credits`, {
        token: world.owner.token,
        headers: { 'admin-access': world.ctx.adminAccessToken },
        body: { credit: { amount: 1, description: 'late' } },
      });
      expect(into.status).toBe(422);
      expect((await world.ctx.audit()).ok).toBe(true);
    });

    it('lets project admins open agent wallets; project members see them; the agent (wallets:read) sees its own', async () => {
      const org = await world.ctx.newOrganization(world.owner, 'Agents');
      const project = await world.ctx.newProject(org.id);
      const passId = randomUUID();
      await world.ctx.publish('org.sentinel_pass.changed', {
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
      const projectAdmin = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, projectAdmin, 'MEMBER');
      await world.ctx.setProjectRole(org.id, project, projectAdmin, 'ADMIN');
      const viewer = await world.ctx.newUser();
      await world.ctx.setProjectRole(org.id, project, viewer, 'VIEWER');

      const body = {
        entity_wallet: { entity_type: 'agent', entity_id: passId, entity_name: 'Bot wallet' },
      };
      const byViewer = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: viewer.token,
        body,
      });
      expect(byViewer.status).toBe(403);
      expect(byViewer.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const created = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: projectAdmin.token,
        body,
      });
      expect(created.status).toBe(201);
      const wallet = created.body.wallet.address_hash as string;
      expect(await addresses(viewer, '?entity_type=agent')).toEqual([wallet]);
      expect(await addresses(world.stranger)).not.toContain(wallet);

      const agentToken = await world.ctx.token(passId, {
        agent: { organizationId: org.id, projectId: project, permissions: ['wallets:read'] },
      });
      expect(await addresses({ token: agentToken })).toEqual([wallet]);
      const debit = await world.ctx.request('POST', `/wallets/${wallet}/debits`, {
        token: agentToken,
        body: { debit: { amount: 1, description: 'agent spend' } },
      });
      expect(debit.status).toBe(403);
      expect(debit.body.errors[0].code).toBe('AGENT_FORBIDDEN');
      const unbound = await world.ctx.request('GET', '/wallets', {
        token: await world.ctx.token(passId, { type: 'agent' }),
      });
      expect(unbound.status).toBe(403);

      await world.ctx.publish('org.sentinel_pass.changed', {
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
});

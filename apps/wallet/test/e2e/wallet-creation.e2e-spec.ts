import { useWalletWorld, walletListHelpers } from '../support/wallet-listing.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/create_entity_wallet — user, organization
 * and project wallets, purposes and currencies, 409 for a second wallet of a purpose, who may
 * open one, validation; docs/architecture.md § Decisions where the contract is silent (wallet
 * record). Memberships arrive as org's events.
 */
describe('wallets', () => {
  const world = useWalletWorld();

  const { addresses } = walletListHelpers(() => world.ctx);

  describe('POST /wallets/create_entity_wallet', () => {
    const userEntity = { entity_type: 'user', entity_id: '1', entity_name: 'n' };

    it('opens a second wallet for the caller, announces it, and answers 201 with the record', async () => {
      const res = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
        body: {
          entity_wallet: {
            entity_type: 'user',
            entity_id: world.owner.id.toUpperCase(),
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
        entity_id: world.owner.id,
        purpose: 'savings',
        currency: 'USD',
        metadata: { color: 'blue' },
        balance: 0,
        balances: { USD: { available: 0, held: 0 } },
      });
      const announced = await world.ctx.enqueued('wallet.wallet.created');
      expect(announced).toContainEqual({
        addressHash: res.body.wallet.address_hash,
        entityType: 'user',
        entityId: world.owner.id,
        purpose: 'savings',
        currency: 'USD',
      });
    });

    it('answers 409 with the existing address for a second wallet of the same purpose', async () => {
      const res = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
        body: {
          entity_wallet: { entity_type: 'user', entity_id: world.owner.id, entity_name: 'Again' },
        },
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({
        code: 'WALLET_ALREADY_EXISTS',
        meta: { address_hash: world.owner.wallet },
      });
    });

    it('answers 404 for another user and for an organization the caller is not in', async () => {
      const other = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.stranger.token,
        body: {
          entity_wallet: {
            entity_type: 'user',
            entity_id: world.owner.id,
            entity_name: 'Mine now',
          },
        },
      });
      expect(other.status).toBe(404);
      expect(other.body.errors[0].code).toBe('ENTITY_NOT_FOUND');
      const org = await world.ctx.newOrganization(world.owner, 'Closed shop');
      const notMember = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.stranger.token,
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
      const org = await world.ctx.newOrganization(world.owner, 'Purposes');
      const member = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const body = {
        entity_wallet: {
          entity_type: 'organization',
          entity_id: String(org.id),
          entity_name: 'Payroll',
          purpose: 'payroll',
        },
      };
      const byMember = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: member.token,
        body,
      });
      expect(byMember.status).toBe(403);
      const byOwner = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
        body,
      });
      expect(byOwner.status).toBe(201);
      expect(await addresses(member)).toContain(byOwner.body.wallet.address_hash);
    });

    it('opens project wallets with the default purpose general, checking metadata.organization_id', async () => {
      const org = await world.ctx.newOrganization(world.owner, 'Funds');
      const project = await world.ctx.newProject(org.id);
      const create = (metadata: unknown) =>
        world.ctx.request('POST', '/wallets/create_entity_wallet', {
          token: world.owner.token,
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
      const funds = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
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
      const unknownProject = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
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
      const res = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
        body: {
          entity_wallet: {
            entity_type: 'user',
            entity_id: world.owner.id,
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
      const res = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.owner.token,
        body: label === 'no entity_wallet' ? entity : { entity_wallet: entity },
      });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });
  });
});

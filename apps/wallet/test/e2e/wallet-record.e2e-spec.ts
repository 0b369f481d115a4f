import { useWalletWorld } from '../support/wallet-listing.js';
import type { TestUser } from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets ({wallet_url}): GET and PUT /wallets/{addressHash} — ETag/304, address
 * forms, 404 for foreign and unknown wallets alike, who may edit, validation;
 * docs/architecture.md § Decisions where the contract is silent (wallet record).
 */
describe('wallets', () => {
  const world = useWalletWorld();

  describe('GET /wallets/{addressHash}', () => {
    it('answers the wallet with an ETag; If-None-Match answers 304; a movement changes the tag', async () => {
      const first = await world.ctx.request('GET', `/wallets/${world.owner.wallet}`, {
        token: world.owner.token,
      });
      expect(first.status).toBe(200);
      expect(first.body.wallet.address_hash).toBe(world.owner.wallet);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await world.ctx.request(
        'GET',
        `/wallets/${world.owner.wallet}?cache_bust=1732262400`,
        {
          token: world.owner.token,
          headers: { 'if-none-match': etag! },
        },
      );
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      await world.ctx.credit(world.owner.wallet, 1);
      const changed = await world.ctx.request('GET', `/wallets/${world.owner.wallet}`, {
        token: world.owner.token,
        headers: { 'if-none-match': etag! },
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(changed.body.wallet.balance).toBe(1);
    });

    it('accepts the address in upper case', async () => {
      const res = await world.ctx.request(
        'GET',
        `/wallets/0x${world.owner.wallet.slice(2).toUpperCase()}`,
        {
          token: world.owner.token,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.wallet.address_hash).toBe(world.owner.wallet);
    });

    it('answers 404 for a foreign wallet and for an unknown one, alike', async () => {
      const foreign = await world.ctx.request('GET', `/wallets/${world.owner.wallet}`, {
        token: world.stranger.token,
      });
      const unknown = await world.ctx.request('GET', `/wallets/0x${'a'.repeat(40)}`, {
        token: world.stranger.token,
      });
      expect(foreign.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.body.errors[0].code).toBe('WALLET_NOT_FOUND');
    });

    it.each(['0x123', 'abc', `0x${'g'.repeat(40)}`, `${'a'.repeat(42)}`])(
      'refuses the malformed address %s with 400',
      async (address) => {
        const res = await world.ctx.request('GET', `/wallets/${address}`, {
          token: world.owner.token,
        });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source).toEqual({ parameter: 'addressHash' });
      },
    );

    it('refuses a malformed cache_bust with 400', async () => {
      const res = await world.ctx.request(
        'GET',
        `/wallets/${world.owner.wallet}?cache_bust=${'x'.repeat(65)}`,
        {
          token: world.owner.token,
        },
      );
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: 'cache_bust' });
    });
  });

  describe('PUT /wallets/{addressHash}', () => {
    it('updates entity_name and description for the owner', async () => {
      const res = await world.ctx.request('PUT', `/wallets/${world.owner.wallet}`, {
        token: world.owner.token,
        body: { wallet: { entity_name: 'Savings', description: 'rainy days', purpose: 'ignored' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.wallet).toMatchObject({
        entity_name: 'Savings',
        description: 'rainy days',
        purpose: 'general',
      });
      expect((await world.ctx.walletOf(world.owner, world.owner.wallet)).entity_name).toBe(
        'Savings',
      );
    });

    it('lets an organization ADMIN edit, answers 403 to a MEMBER and 404 to a stranger', async () => {
      const org = await world.ctx.newOrganization(world.owner, 'Editable');
      const admin = await world.ctx.newUser();
      const member = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, admin, 'ADMIN');
      await world.ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const put = (user: TestUser) =>
        world.ctx.request('PUT', `/wallets/${org.wallet}`, {
          token: user.token,
          body: { wallet: { description: `by ${user.id}` } },
        });
      expect((await put(admin)).status).toBe(200);
      const byMember = await put(member);
      expect(byMember.status).toBe(403);
      expect(byMember.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      expect((await put(world.stranger)).status).toBe(404);
      expect((await world.ctx.walletOf(world.owner, org.wallet)).description).toBe(
        `by ${admin.id}`,
      );
    });

    it.each([
      ['no wallet', {}, '/wallet'],
      ['a string', { wallet: 'x' }, '/wallet'],
      ['no field', { wallet: {} }, '/wallet'],
      ['a blank name', { wallet: { entity_name: '   ' } }, '/wallet/entity_name'],
      ['a name over 200', { wallet: { entity_name: 'x'.repeat(201) } }, '/wallet/entity_name'],
      ['a numeric description', { wallet: { description: 5 } }, '/wallet/description'],
    ])('refuses %s with 400 at its pointer', async (_label, body, pointer) => {
      const res = await world.ctx.request('PUT', `/wallets/${world.owner.wallet}`, {
        token: world.owner.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });
  });
});

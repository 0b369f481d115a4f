import { movementHelpers, useMovementWorld } from '../support/movements.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/{addressHash}/debits and /credits
 * (Authentication 8: `Admin-Access`); docs/architecture.md § Decisions where the contract is
 * silent (who may move money, idempotency per reference_id).
 */
describe('transactions', () => {
  const world = useMovementWorld();

  const { balance, entries } = movementHelpers(() => world.ctx);

  describe('POST /wallets/{addressHash}/debits', () => {
    it('debits the owner’s wallet to the issuance account and answers {debit}', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 10);
      const res = await world.ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 4, description: 'usage', reference_id: 'inv-1' } },
      });
      expect(res.status).toBe(201);
      expect(res.body.debit).toMatchObject({
        type: 'debit',
        from_wallet: user.wallet,
        to_wallet: null,
        amount: 4,
        reference_id: 'inv-1',
        balance_after: 6,
      });
      const again = await world.ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 4, description: 'usage', reference_id: 'inv-1' } },
      });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(res.body);
      expect(await balance(user, user.wallet)).toBe(6);
      const conflict = await world.ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 5, description: 'usage', reference_id: 'inv-1' } },
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body.errors[0].source).toEqual({ pointer: '/debit/reference_id' });
      const history = await world.ctx.request('GET', `/wallets/${user.wallet}/transactions`, {
        token: user.token,
      });
      expect(history.body.data[0]).toMatchObject({
        type: 'debit',
        direction: 'out',
        reference_id: 'inv-1',
        counterparty_wallet: null,
      });
    });

    it('refuses a debit above the balance with 422 and moves nothing', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 1);
      const res = await world.ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 2, description: 'too much' } },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].code).toBe('INSUFFICIENT_FUNDS');
      expect(await balance(user, user.wallet)).toBe(1);
    });

    it('answers 404 for a foreign wallet and 403 for an organization MEMBER', async () => {
      const foreign = await world.ctx.request('POST', `/wallets/${world.alice.wallet}/debits`, {
        token: world.bob.token,
        body: { debit: { amount: 1, description: 'x' } },
      });
      expect(foreign.status).toBe(404);
      const org = await world.ctx.newOrganization(world.alice, 'Debits');
      await world.ctx.credit(org.wallet, 3);
      const member = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const byMember = await world.ctx.request('POST', `/wallets/${org.wallet}/debits`, {
        token: member.token,
        body: { debit: { amount: 1, description: 'x' } },
      });
      expect(byMember.status).toBe(403);
      expect(await balance(world.alice, org.wallet)).toBe(3);
    });

    it.each([
      ['no debit', {}, '/debit'],
      ['no description', { debit: { amount: 1 } }, '/debit/description'],
      ['a string amount', { debit: { amount: '1', description: 'x' } }, '/debit/amount'],
      [
        'an empty reference_id',
        { debit: { amount: 1, description: 'x', reference_id: '' } },
        '/debit/reference_id',
      ],
      [
        'a long reference_id',
        { debit: { amount: 1, description: 'x', reference_id: 'r'.repeat(256) } },
        '/debit/reference_id',
      ],
    ])('refuses %s with 400', async (_label, body, pointer) => {
      const res = await world.ctx.request('POST', `/wallets/${world.alice.wallet}/debits`, {
        token: world.alice.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    });
  });

  describe('POST /wallets/{addressHash}/credits', () => {
    const credit = (headers: Record<string, string>, body: unknown, address = world.bob.wallet) =>
      world.ctx.request('POST', `/wallets/${address}/credits`, {
        token: world.alice.token,
        headers,
        body,
      });

    it('refuses without Admin-Access, or with a wrong one, with 403 and moves nothing', async () => {
      const before = await entries();
      const missing = await credit({}, { credit: { amount: 1, description: 'x' } });
      expect(missing.status).toBe(403);
      expect(missing.body.errors[0].code).toBe('ADMIN_ACCESS_REQUIRED');
      const wrong = await credit(
        { 'admin-access': 'nope' },
        { credit: { amount: 1, description: 'x' } },
      );
      expect(wrong.status).toBe(403);
      expect(await entries()).toBe(before);
    });

    it('credits any wallet with Admin-Access, idempotently per reference_id', async () => {
      const user = await world.ctx.newUser();
      const admin = { 'admin-access': world.ctx.adminAccessToken };
      const body = { credit: { amount: 7, description: 'grant', reference_id: 'grant-1' } };
      const first = await credit(admin, body, user.wallet);
      const second = await credit(admin, body, user.wallet);
      expect(first.status).toBe(201);
      expect(first.body.credit).toMatchObject({
        type: 'credit',
        from_wallet: null,
        to_wallet: user.wallet,
        amount: 7,
        balance_after: 7,
      });
      expect(second.body).toEqual(first.body);
      expect(await balance(user, user.wallet)).toBe(7);
    });

    it('answers 404 for an unknown wallet and 400 for a bad body, with Admin-Access', async () => {
      const admin = { 'admin-access': world.ctx.adminAccessToken };
      expect(
        (await credit(admin, { credit: { amount: 1, description: 'x' } }, `0x${'c'.repeat(40)}`))
          .status,
      ).toBe(404);
      const bad = await credit(admin, { credit: { amount: -1, description: 'x' } });
      expect(bad.status).toBe(400);
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await world.ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

import { movementHelpers, useMovementWorld, transfer } from '../support/movements.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/transact;
 * docs/architecture.md § Decisions where the contract is silent (amounts): validation of movement
 * bodies — amounts (up to 1e15, 8 decimals), wallet addresses, assets, metadata, descriptions —
 * 400 at the pointer, never 500.
 * Conversion rates from config (apps/wallet/test/support/movements.ts): USD→CREDITS 100,
 * CREDITS→USD 0.01, EUR offered but never convertible.
 */
describe('transactions', () => {
  const world = useMovementWorld();

  const { transact, balance } = movementHelpers(() => world.ctx);

  describe('validation of movement bodies', () => {
    it.each([
      ['a string', '10'],
      ['null', null],
      ['a boolean', true],
      ['an object', { value: 1 }],
      ['zero', 0],
      ['a negative', -1],
      ['more than 8 decimals', 0.123456789],
      ['more than 1e15', 1000000000000001],
      ['1e16', 1e16],
    ])('refuses an amount that is %s with 400 at /transaction/amount', async (_label, amount) => {
      const res = await transact(
        world.alice,
        transfer(world.alice.wallet, world.bob.wallet, amount),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        code: 'VALIDATION_FAILED',
        source: { pointer: '/transaction/amount' },
      });
    });

    it('accepts 1e15 exactly', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 1e15);
      expect(await balance(user, user.wallet)).toBe(1e15);
    });

    it.each([
      ['no transaction', {}, '/transaction'],
      ['a transaction string', { transaction: 'x' }, '/transaction'],
      [
        'a malformed from_wallet',
        { transaction: { from_wallet: '0x1' } },
        '/transaction/from_wallet',
      ],
      ['no to_wallet', { transaction: {} }, '/transaction/to_wallet'],
      ['a lower-case asset', { transaction: { from_asset: 'credits' } }, '/transaction/from_asset'],
      ['array metadata', { transaction: { metadata: [] } }, '/transaction/metadata'],
      [
        'a long description',
        { transaction: { description: 'x'.repeat(501) } },
        '/transaction/description',
      ],
    ])('refuses %s with 400 at its pointer', async (_label, body, pointer) => {
      const res = await world.ctx.request('POST', '/wallets/transact', {
        token: world.alice.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });

    it('refuses malformed JSON and a non-object body with 400, never 500', async () => {
      const broken = await world.ctx.request('POST', '/wallets/transact', {
        token: world.alice.token,
        raw: '{"transaction": {',
      });
      expect(broken.status).toBe(400);
      const array = await world.ctx.request('POST', '/wallets/transact', {
        token: world.alice.token,
        raw: '[1,2]',
      });
      expect(array.status).toBe(400);
      const nan = await world.ctx.request('POST', '/wallets/transact', {
        token: world.alice.token,
        raw: `{"transaction":{"from_wallet":"${world.alice.wallet}","to_wallet":"${world.bob.wallet}","from_asset":"CREDITS","to_asset":"CREDITS","amount":NaN}}`,
      });
      expect(nan.status).toBe(400);
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await world.ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

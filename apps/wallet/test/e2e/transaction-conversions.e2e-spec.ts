import { movementHelpers, useMovementWorld } from '../support/movements.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/transact inside one wallet;
 * docs/architecture.md § Decisions where the contract is silent (amounts, assets and conversion):
 * conversion through the issuance account at the configured rate, 8-decimal truncation, pairs
 * without a rate.
 * Conversion rates from config (apps/wallet/test/support/movements.ts): USD→CREDITS 100,
 * CREDITS→USD 0.01, EUR offered but never convertible.
 */
describe('transactions', () => {
  const world = useMovementWorld();

  const { transact } = movementHelpers(() => world.ctx);

  describe('POST /wallets/transact: conversions', () => {
    it('converts inside one wallet at the configured rate, through the issuance account', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 10, 'USD');
      const res = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'USD',
        to_asset: 'CREDITS',
        amount: 2.5,
      });
      expect(res.status).toBe(201);
      expect(res.body.transaction).toMatchObject({
        type: 'conversion',
        amount: 2.5,
        to_amount: 250,
        rate: 100,
        balance_after: 7.5,
        to_balance_after: 250,
      });
      const wallet = await world.ctx.walletOf(user, user.wallet);
      expect(wallet.balances).toEqual({
        CREDITS: { available: 250, held: 0 },
        USD: { available: 7.5, held: 0 },
      });
      const postings = await world.ctx.sql<{
        wallet_address: string;
        asset: string;
        amount: string;
      }>(
        `SELECT wallet_address, asset, amount::text FROM posting WHERE entry_id = $1 ORDER BY id`,
        [res.body.transaction.id],
      );
      expect(postings).toEqual([
        { wallet_address: user.wallet, asset: 'USD', amount: '-2.50000000' },
        { wallet_address: `0x${'0'.repeat(40)}`, asset: 'USD', amount: '2.50000000' },
        { wallet_address: `0x${'0'.repeat(40)}`, asset: 'CREDITS', amount: '-250.00000000' },
        { wallet_address: user.wallet, asset: 'CREDITS', amount: '250.00000000' },
      ]);
      const history = await world.ctx.request('GET', `/wallets/${user.wallet}/transactions`, {
        token: user.token,
      });
      const lines = history.body.data.filter(
        (t: { transaction_id: string }) => t.transaction_id === res.body.transaction.id,
      );
      expect(lines).toHaveLength(2);
      expect(
        lines.every((l: { counterparty_wallet: null }) => l.counterparty_wallet === null),
      ).toBe(true);
    });

    it('truncates the converted amount to 8 decimals and refuses one that rounds to zero', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 1);
      const small = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'CREDITS',
        to_asset: 'USD',
        amount: 0.00000099,
      });
      expect(small.status).toBe(422);
      expect(small.body.errors[0].code).toBe('AMOUNT_TOO_SMALL');
      const ok = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'CREDITS',
        to_asset: 'USD',
        amount: 0.12345678,
      });
      expect(ok.status).toBe(201);
      expect(ok.body.transaction.to_amount).toBe(0.00123456);
    });

    it('refuses a pair without a configured rate with 422 CONVERSION_NOT_SUPPORTED', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 5, 'EUR');
      const res = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'EUR',
        to_asset: 'CREDITS',
        amount: 1,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].code).toBe('CONVERSION_NOT_SUPPORTED');
      expect((await world.ctx.walletOf(user, user.wallet)).balances.EUR.available).toBe(5);
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await world.ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

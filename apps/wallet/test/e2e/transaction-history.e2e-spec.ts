import { useMovementWorld } from '../support/movements.js';

/**
 * docs/api.md § Wallets ({wallet_url}): GET /wallets/{addressHash}/transactions — newest first,
 * page/per_page and totals, refused query parameters, 404 for a foreign wallet.
 */
describe('transactions', () => {
  const world = useMovementWorld();

  describe('GET /wallets/{addressHash}/transactions', () => {
    it('pages newest first with page, per_page and totals', async () => {
      const user = await world.ctx.newUser();
      for (let i = 1; i <= 25; i++) await world.ctx.credit(user.wallet, i);
      const page1 = await world.ctx.request('GET', `/wallets/${user.wallet}/transactions`, {
        token: user.token,
      });
      expect(page1.body.meta).toEqual({ page: 1, per_page: 20, total_count: 25, total_pages: 2 });
      expect(page1.body.data).toHaveLength(20);
      expect(page1.body.data[0].amount).toBe(25);
      expect(page1.body.data[0].balance_after).toBe(325);
      const page2 = await world.ctx.request(
        'GET',
        `/wallets/${user.wallet}/transactions?page=2&per_page=20`,
        {
          token: user.token,
        },
      );
      expect(page2.body.data.map((t: { amount: number }) => t.amount)).toEqual([5, 4, 3, 2, 1]);
      const small = await world.ctx.request(
        'GET',
        `/wallets/${user.wallet}/transactions?per_page=100&page=1`,
        {
          token: user.token,
        },
      );
      expect(small.body.data).toHaveLength(25);
    });

    it.each(['per_page=101', 'per_page=0', 'page=0', 'page=abc', 'per_page=1.5'])(
      'refuses %s with 400',
      async (query) => {
        const res = await world.ctx.request(
          'GET',
          `/wallets/${world.alice.wallet}/transactions?${query}`,
          {
            token: world.alice.token,
          },
        );
        expect(res.status).toBe(400);
      },
    );

    it('answers 404 for a foreign wallet', async () => {
      const res = await world.ctx.request('GET', `/wallets/${world.alice.wallet}/transactions`, {
        token: world.bob.token,
      });
      expect(res.status).toBe(404);
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await world.ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

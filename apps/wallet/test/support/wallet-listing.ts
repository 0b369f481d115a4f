import type { WalletTestContext } from './wallet-test-context.js';

/**
 * GET /wallets as a user, for the wallet tests (apps/wallet/test/e2e/wallet-*.e2e-spec.ts),
 * bound to the test file's context (`ctx()`: it is created in `beforeAll`).
 */
export function walletListHelpers(ctx: () => WalletTestContext) {
  /** The wallets `user` sees (200 asserted). */
  const list = async (user: { token: string }, query = '') => {
    const res = await ctx().request('GET', `/wallets${query}`, { token: user.token });
    expect(res.status).toBe(200);
    return res.body.data as { address_hash: string; entity_type: string; entity_id: string }[];
  };
  const addresses = async (user: { token: string }, query = '') =>
    (await list(user, query)).map((w) => w.address_hash);
  return { list, addresses };
}

import { WalletTestContext, type TestUser } from './wallet-test-context.js';

/** The wallet service of a wallet test file, with a wallet owner and someone else. */
export interface WalletWorld {
  ctx: WalletTestContext;
  owner: TestUser;
  stranger: TestUser;
}

/**
 * Declares the test file's {@link WalletWorld} for the wallet tests
 * (apps/wallet/test/e2e/wallet-*.e2e-spec.ts): `beforeAll` starts the wallet service and signs up
 * `owner` and `stranger` (read the fields inside tests, not while declaring), `afterAll` closes it.
 */
export function useWalletWorld(): WalletWorld {
  const world = {} as WalletWorld;
  beforeAll(async () => {
    world.ctx = await WalletTestContext.start();
    world.owner = await world.ctx.newUser();
    world.stranger = await world.ctx.newUser();
  });
  afterAll(() => world.ctx?.close());
  return world;
}

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

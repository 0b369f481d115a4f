import { WalletTestContext, type TestUser } from './wallet-test-context.js';

/**
 * The wallet configuration of the movement tests (apps/wallet/test/e2e/transaction-*.e2e-spec.ts):
 * CREDITS, USD and EUR offered; USD→CREDITS 100, CREDITS→USD 0.01, EUR never convertible.
 */
export const MOVEMENT_CONFIG = {
  WALLET_ASSETS: 'CREDITS,USD,EUR',
  WALLET_CONVERSION_RATES: 'USD:CREDITS=100,CREDITS:USD=0.01',
};

/** A CREDITS→CREDITS `transaction` body for POST /wallets/transact. */
export const transfer = (
  from: string,
  to: string,
  amount: unknown,
  extra: Record<string, unknown> = {},
) => ({
  from_wallet: from,
  to_wallet: to,
  from_asset: 'CREDITS',
  to_asset: 'CREDITS',
  amount,
  ...extra,
});

/** The wallet service of a movement test file, with two funded-on-demand users. */
export interface MovementWorld {
  ctx: WalletTestContext;
  alice: TestUser;
  bob: TestUser;
}

/**
 * Declares the test file's {@link MovementWorld}: `beforeAll` starts the wallet service with
 * {@link MOVEMENT_CONFIG} and signs up `alice` and `bob` (read the fields inside tests, not
 * while declaring), `afterAll` closes it.
 */
export function useMovementWorld(): MovementWorld {
  const world = {} as MovementWorld;
  beforeAll(async () => {
    world.ctx = await WalletTestContext.start(MOVEMENT_CONFIG);
    world.alice = await world.ctx.newUser();
    world.bob = await world.ctx.newUser();
  });
  afterAll(() => world.ctx?.close());
  return world;
}

/**
 * Requests and reads of the movement tests, bound to the test file's context (`ctx()`: it is
 * created in `beforeAll`).
 */
export function movementHelpers(ctx: () => WalletTestContext) {
  const transact = (
    user: { token: string },
    transaction: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    ctx().request('POST', '/wallets/transact', {
      token: user.token,
      body: { transaction },
      headers,
    });
  const balance = async (user: { token: string }, address: string, asset = 'CREDITS') =>
    (await ctx().walletOf(user, address)).balances[asset]?.available ?? 0;
  const entries = async () =>
    (await ctx().sql<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'))[0].n;
  return { transact, balance, entries };
}

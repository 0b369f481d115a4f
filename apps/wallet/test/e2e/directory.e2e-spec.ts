import { WalletTestContext } from '../support/wallet-test-context.js';

/**
 * The wallet's user directory (where transfer codes are mailed) is a read model of auth's
 * `auth.user.*` events, delivered at least once and possibly out of order: an older snapshot
 * arriving after a newer one must not bring back the old email or name
 * (docs/architecture.md § Consistency).
 */
describe('wallet user directory', () => {
  let ctx: WalletTestContext;

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
  });
  afterAll(() => ctx.close());

  const stored = async (userId: string) =>
    (
      await ctx.sql<{ email: string | null; first_name: string; occurred_at: Date }>(
        'SELECT email, first_name, occurred_at FROM directory_user WHERE user_id = $1',
        [userId],
      )
    )[0];

  it('keeps the newer snapshot when an older auth.user.updated arrives after it', async () => {
    const user = await ctx.newUser();
    const snapshot = {
      userId: user.id,
      phone: null,
      lastName: 'User',
      status: 'active' as const,
    };
    const newer = new Date(Date.now() + 60_000).toISOString();
    const older = new Date(Date.now() + 30_000).toISOString();
    await ctx.publish(
      'auth.user.updated',
      { ...snapshot, email: 'new@example.com', firstName: 'New' },
      newer,
    );
    expect(await stored(user.id)).toMatchObject({ email: 'new@example.com', first_name: 'New' });

    await ctx.publish(
      'auth.user.updated',
      { ...snapshot, email: 'old@example.com', firstName: 'Old' },
      older,
    );
    const after = await stored(user.id);
    expect(after).toMatchObject({ email: 'new@example.com', first_name: 'New' });
    expect(after.occurred_at.toISOString()).toBe(newer);
  });

  it('applies a snapshot newer than the stored one', async () => {
    const user = await ctx.newUser();
    const later = new Date(Date.now() + 60_000).toISOString();
    await ctx.publish(
      'auth.user.updated',
      {
        userId: user.id,
        email: 'renamed@example.com',
        phone: null,
        firstName: 'Renamed',
        lastName: 'User',
        status: 'active',
      },
      later,
    );
    expect(await stored(user.id)).toMatchObject({
      email: 'renamed@example.com',
      first_name: 'Renamed',
    });
  });
});

import { TransfersSweeper } from '../../src/modules/transfers/transfers.sweeper.js';
import { codeFor } from '../support/transfer-requests.js';
import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets: /wallet_transfers — expiry of a reserved request (codes shortened to 1 s
 * here): voided by the sweeper, or by the first step after the deadline;
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes, 5 attempts.
 */
describe('transfer request expiry', () => {
  let ctx: WalletTestContext;
  let sender: TestUser;
  let recipient: TestUser;

  beforeAll(async () => {
    ctx = await WalletTestContext.start({
      WALLET_TRANSFER_CODE_TTL_SECONDS: '1',
      WALLET_TRANSFER_SWEEP_INTERVAL_MS: '3600000',
    });
    sender = await ctx.newUser();
    recipient = await ctx.newUser();
    await ctx.credit(sender.wallet, 50);
  });
  afterAll(() => ctx.close());

  const reserve = async (amount: number) => {
    const created = await ctx.request('POST', '/wallet_transfers', {
      token: sender.token,
      body: { transfer: { from_wallet: sender.wallet, to_wallet: recipient.wallet, amount } },
    });
    const id = created.body.transfer.id as string;
    const res = await ctx.request('POST', `/wallet_transfers/${id}/verify_sender`, {
      token: sender.token,
      body: { verification_code: await codeFor(ctx, sender.email, id) },
    });
    expect(res.status).toBe(200);
    return id;
  };
  const held = async () => (await ctx.walletOf(sender, sender.wallet)).balances.CREDITS.held;
  const pastDeadline = () => new Promise((resolve) => setTimeout(resolve, 1200));

  it('the sweeper voids an overdue reservation: expired, hold returned, accept moves nothing', async () => {
    const id = await reserve(5);
    expect(await held()).toBe(5);
    await pastDeadline();
    await ctx.app.get(TransfersSweeper).sweep();
    expect(await held()).toBe(0);
    const [row] = await ctx.sql<{ status: string }>(
      'SELECT status FROM transfer_request WHERE id = $1',
      [id],
    );
    expect(row.status).toBe('expired');
    const accept = await ctx.request('POST', `/wallet_transfers/${id}/accept`, {
      token: recipient.token,
      body: { verification_code: await codeFor(ctx, recipient.email, id) },
    });
    expect(accept.status).toBe(409);
    expect(accept.body.errors[0].meta.status).toBe('expired');
    expect((await ctx.walletOf(recipient, recipient.wallet)).balance).toBe(0);
  });

  it('a step after the deadline expires the request itself, before any sweep', async () => {
    const id = await reserve(6);
    await pastDeadline();
    const accept = await ctx.request('POST', `/wallet_transfers/${id}/accept`, {
      token: recipient.token,
      body: { verification_code: await codeFor(ctx, recipient.email, id) },
    });
    expect(accept.status).toBe(409);
    expect(accept.body.errors[0].meta.status).toBe('expired');
    expect(await held()).toBe(0);
    expect((await ctx.walletOf(recipient, recipient.wallet)).balance).toBe(0);
    expect((await ctx.audit()).ok).toBe(true);
  });
});

import { codeFor, transferRequestHelpers } from '../support/transfer-requests.js';
import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets: /wallet_transfers — who verifies and who accepts: an organization
 * wallet's OWNERs and ADMINs, a creator who lost control of the source wallet, someone other
 * than the creator, a stranger;
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes, 5 attempts.
 */
describe('transfer requests', () => {
  let ctx: WalletTestContext;
  let sender: TestUser;
  let recipient: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
    sender = await ctx.newUser();
    recipient = await ctx.newUser();
    stranger = await ctx.newUser();
    await ctx.credit(sender.wallet, 100);
  });
  afterAll(() => ctx.close());

  const { create, step, reserved } = transferRequestHelpers(() => ({ ctx, sender, recipient }));

  it('mails an organization wallet’s code to its OWNERs and ADMINs, and only they may accept', async () => {
    const owner = await ctx.newUser();
    const org = await ctx.newOrganization(owner, 'Receivers');
    const admin = await ctx.newUser();
    const member = await ctx.newUser();
    await ctx.setOrganizationRole(org.id, admin, 'ADMIN');
    await ctx.setOrganizationRole(org.id, member, 'MEMBER');
    const id = await reserved(4, org.wallet);
    const recipients = (await ctx.enqueued('notify.requested'))
      .filter((m) => m.text.includes(id) && m.template === 'wallet_transfer_recipient_code')
      .map((m) => m.to)
      .sort();
    expect(recipients).toEqual([owner.email, admin.email].sort());
    const code = await codeFor(ctx, admin.email, id);
    expect((await step(member, id, 'accept', code)).status).toBe(403);
    const accepted = await step(admin, id, 'accept', code);
    expect(accepted.status).toBe(200);
    expect((await ctx.walletOf(owner, org.wallet)).balance).toBe(4);
  });

  it('refuses the sender code of a creator who lost control of the source wallet meanwhile', async () => {
    const owner = await ctx.newUser();
    const org = await ctx.newOrganization(owner, 'Demoted payer');
    await ctx.credit(org.wallet, 10);
    const admin = await ctx.newUser();
    await ctx.setOrganizationRole(org.id, admin, 'ADMIN');
    const created = await create(admin, {
      from_wallet: org.wallet,
      to_wallet: recipient.wallet,
      amount: 5,
    });
    expect(created.status).toBe(201);
    const id = created.body.transfer.id as string;
    await ctx.setOrganizationRole(org.id, admin, 'MEMBER');
    const res = await step(admin, id, 'verify_sender', await codeFor(ctx, admin.email, id));
    expect(res.status).toBe(403);
    expect((await ctx.walletOf(owner, org.wallet)).balances.CREDITS).toEqual({
      available: 10,
      held: 0,
    });
  });

  it('answers 403 when someone other than the creator verifies, 404 for a stranger', async () => {
    const created = await create(sender, {
      from_wallet: sender.wallet,
      to_wallet: recipient.wallet,
      amount: 1,
    });
    const id = created.body.transfer.id as string;
    const code = await codeFor(ctx, sender.email, id);
    expect((await step(recipient, id, 'verify_sender', code)).status).toBe(403);
    expect((await step(stranger, id, 'verify_sender', code)).status).toBe(404);
  });

  it('leaves every hold equal to the reserved requests', async () => {
    expect((await ctx.audit()).problems).toEqual([]);
  });
});

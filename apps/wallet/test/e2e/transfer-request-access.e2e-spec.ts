import {
  codeFor,
  transferRequestHelpers,
  useTransferRequestWorld,
} from '../support/transfer-requests.js';

/**
 * docs/api.md § Wallets: /wallet_transfers — who verifies and who accepts: an organization
 * wallet's OWNERs and ADMINs, a creator who lost control of the source wallet, someone other
 * than the creator, a stranger;
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes, 5 attempts.
 */
describe('transfer requests', () => {
  const world = useTransferRequestWorld();

  const { create, step, reserved } = transferRequestHelpers(() => world);

  it('mails an organization wallet’s code to its OWNERs and ADMINs, and only they may accept', async () => {
    const owner = await world.ctx.newUser();
    const org = await world.ctx.newOrganization(owner, 'Receivers');
    const admin = await world.ctx.newUser();
    const member = await world.ctx.newUser();
    await world.ctx.setOrganizationRole(org.id, admin, 'ADMIN');
    await world.ctx.setOrganizationRole(org.id, member, 'MEMBER');
    const id = await reserved(4, org.wallet);
    const recipients = (await world.ctx.enqueued('notify.requested'))
      .filter((m) => m.text.includes(id) && m.template === 'wallet_transfer_recipient_code')
      .map((m) => m.to)
      .sort();
    expect(recipients).toEqual([owner.email, admin.email].sort());
    const code = await codeFor(world.ctx, admin.email, id);
    expect((await step(member, id, 'accept', code)).status).toBe(403);
    const accepted = await step(admin, id, 'accept', code);
    expect(accepted.status).toBe(200);
    expect((await world.ctx.walletOf(owner, org.wallet)).balance).toBe(4);
  });

  it('refuses the sender code of a creator who lost control of the source wallet meanwhile', async () => {
    const owner = await world.ctx.newUser();
    const org = await world.ctx.newOrganization(owner, 'Demoted payer');
    await world.ctx.credit(org.wallet, 10);
    const admin = await world.ctx.newUser();
    await world.ctx.setOrganizationRole(org.id, admin, 'ADMIN');
    const created = await create(admin, {
      from_wallet: org.wallet,
      to_wallet: world.recipient.wallet,
      amount: 5,
    });
    expect(created.status).toBe(201);
    const id = created.body.transfer.id as string;
    await world.ctx.setOrganizationRole(org.id, admin, 'MEMBER');
    const res = await step(admin, id, 'verify_sender', await codeFor(world.ctx, admin.email, id));
    expect(res.status).toBe(403);
    expect((await world.ctx.walletOf(owner, org.wallet)).balances.CREDITS).toEqual({
      available: 10,
      held: 0,
    });
  });

  it('answers 403 when someone other than the creator verifies, 404 for a stranger', async () => {
    const created = await create(world.sender, {
      from_wallet: world.sender.wallet,
      to_wallet: world.recipient.wallet,
      amount: 1,
    });
    const id = created.body.transfer.id as string;
    const code = await codeFor(world.ctx, world.sender.email, id);
    expect((await step(world.recipient, id, 'verify_sender', code)).status).toBe(403);
    expect((await step(world.stranger, id, 'verify_sender', code)).status).toBe(404);
  });

  it('leaves every hold equal to the reserved requests', async () => {
    expect((await world.ctx.audit()).problems).toEqual([]);
  });
});

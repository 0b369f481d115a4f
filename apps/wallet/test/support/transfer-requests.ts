import { WalletTestContext, type TestUser } from './wallet-test-context.js';

/** The code of the last mail to `email` about `transferId`, read from the outbox as auth would. */
export async function codeFor(
  ctx: WalletTestContext,
  email: string,
  transferId: string,
): Promise<string> {
  const mails = (await ctx.enqueued('notify.requested')).filter(
    (m) => m.to === email && m.text.includes(transferId),
  );
  const last = mails[mails.length - 1];
  const code = last && /(?: is | the code )(\d{6})\b/.exec(last.text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email} for ${transferId}`);
  return code;
}

/** A 6-digit code that is not `code`. */
export const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The wallet service of a transfer request test file and its parties. */
export interface TransferRequestWorld {
  ctx: WalletTestContext;
  /** Has 100 CREDITS. */
  sender: TestUser;
  recipient: TestUser;
  /** Neither party: may see nothing of their transfers. */
  stranger: TestUser;
}

/**
 * Declares the test file's {@link TransferRequestWorld}: `beforeAll` starts the wallet service,
 * signs up the three users and credits the sender 100 (read the fields inside tests, not while
 * declaring), `afterAll` closes it.
 */
export function useTransferRequestWorld(): TransferRequestWorld {
  const world = {} as TransferRequestWorld;
  beforeAll(async () => {
    world.ctx = await WalletTestContext.start();
    world.sender = await world.ctx.newUser();
    world.recipient = await world.ctx.newUser();
    world.stranger = await world.ctx.newUser();
    await world.ctx.credit(world.sender.wallet, 100);
  });
  afterAll(() => world.ctx?.close());
  return world;
}

/**
 * Requests of the transfer request tests (apps/wallet/test/e2e/transfer-request-*.e2e-spec.ts),
 * bound to the test file's context and parties (`world()`: they are created in `beforeAll`).
 */
export function transferRequestHelpers(
  world: () => { ctx: WalletTestContext; sender: TestUser; recipient: TestUser },
) {
  const create = (user: TestUser, transfer: Record<string, unknown>) =>
    world().ctx.request('POST', '/wallet_transfers', { token: user.token, body: { transfer } });
  const step = (user: TestUser, id: string, action: string, code?: string) =>
    world().ctx.request('POST', `/wallet_transfers/${id}/${action}`, {
      token: user.token,
      body: code === undefined ? undefined : { verification_code: code },
    });
  const available = async (user: TestUser, address = user.wallet) =>
    (await world().ctx.walletOf(user, address)).balances.CREDITS;

  /** A request from `from` (sender's wallet) to `to`, verified by the sender: funds reserved. */
  const reserved = async (amount: number, to = world().recipient.wallet) => {
    const { ctx, sender } = world();
    const created = await create(sender, { from_wallet: sender.wallet, to_wallet: to, amount });
    const id = created.body.transfer.id as string;
    const verified = await step(sender, id, 'verify_sender', await codeFor(ctx, sender.email, id));
    expect(verified.status).toBe(200);
    return id;
  };
  return { create, step, available, reserved };
}

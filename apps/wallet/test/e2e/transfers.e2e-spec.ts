import { TransfersSweeper } from '../../src/modules/transfers/transfers.sweeper.js';
import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets: /wallet_transfers (list, create, pending, verify_sender, accept, reject);
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes (shortened here), 5 attempts.
 */

/** The code of the last mail to `email` about `transferId`, read from the outbox as auth would. */
async function codeFor(ctx: WalletTestContext, email: string, transferId: string): Promise<string> {
  const mails = (await ctx.enqueued('notify.requested')).filter(
    (m) => m.to === email && m.text.includes(transferId),
  );
  const last = mails[mails.length - 1];
  const code = last && /(?: is | the code )(\d{6})\b/.exec(last.text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email} for ${transferId}`);
  return code;
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

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

  const create = (user: TestUser, transfer: Record<string, unknown>) =>
    ctx.request('POST', '/wallet_transfers', { token: user.token, body: { transfer } });
  const step = (user: TestUser, id: string, action: string, code?: string) =>
    ctx.request('POST', `/wallet_transfers/${id}/${action}`, {
      token: user.token,
      body: code === undefined ? undefined : { verification_code: code },
    });
  const available = async (user: TestUser, address = user.wallet) =>
    (await ctx.walletOf(user, address)).balances.CREDITS;

  /** A request from `from` (sender's wallet) to `to`, verified by the sender: funds reserved. */
  const reserved = async (amount: number, to = recipient.wallet) => {
    const created = await create(sender, { from_wallet: sender.wallet, to_wallet: to, amount });
    const id = created.body.transfer.id as string;
    const verified = await step(sender, id, 'verify_sender', await codeFor(ctx, sender.email, id));
    expect(verified.status).toBe(200);
    return id;
  };

  describe('the whole flow', () => {
    let id: string;

    it('creates a request (201) pending the sender code, mailed to the sender; nothing moves yet', async () => {
      const res = await create(sender, {
        from_wallet: sender.wallet,
        to_wallet: recipient.wallet,
        amount: 10,
        description: 'rent',
      });
      expect(res.status).toBe(201);
      expect(res.body.transfer).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        from_wallet: sender.wallet,
        to_wallet: recipient.wallet,
        amount: 10,
        asset: 'CREDITS',
        description: 'rent',
        status: 'pending_sender_verification',
        failure_reason: null,
        expires_at: expect.any(String),
        attempts_remaining: 5,
        transaction_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      id = res.body.transfer.id;
      const ttl = Date.parse(res.body.transfer.expires_at) - Date.now();
      expect(ttl).toBeGreaterThan(9 * 60_000);
      expect(ttl).toBeLessThanOrEqual(10 * 60_000);
      const mail = (await ctx.enqueued('notify.requested')).find((m) => m.text.includes(id));
      expect(mail).toMatchObject({
        channel: 'email',
        to: sender.email,
        template: 'wallet_transfer_sender_code',
      });
      expect(await available(sender)).toEqual({ available: 100, held: 0 });
      const stored = await ctx.sql<{ code_hmac: string }>(
        'SELECT code_hmac FROM transfer_request WHERE id = $1',
        [id],
      );
      expect(stored[0].code_hmac).not.toContain(await codeFor(ctx, sender.email, id));
    });

    it('lists it as pending for the sender only', async () => {
      const mine = await ctx.request('GET', '/wallet_transfers/pending', { token: sender.token });
      expect(mine.body.data.map((t: { id: string }) => t.id)).toContain(id);
      const theirs = await ctx.request('GET', '/wallet_transfers/pending', {
        token: recipient.token,
      });
      expect(theirs.body.data.map((t: { id: string }) => t.id)).not.toContain(id);
    });

    it('counts a wrong sender code (422, attempts_remaining) and reserves nothing', async () => {
      const code = await codeFor(ctx, sender.email, id);
      const res = await step(sender, id, 'verify_sender', wrong(code));
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'INVALID_VERIFICATION_CODE',
        meta: { attempts_remaining: 4 },
      });
      expect(await available(sender)).toEqual({ available: 100, held: 0 });
    });

    it('reserves the amount on the right sender code and mails the recipient a code', async () => {
      const res = await step(sender, id, 'verify_sender', await codeFor(ctx, sender.email, id));
      expect(res.status).toBe(200);
      expect(res.body.transfer).toMatchObject({
        status: 'pending_recipient_acceptance',
        attempts_remaining: 5,
      });
      expect(await available(sender)).toEqual({ available: 90, held: 10 });
      expect(await codeFor(ctx, recipient.email, id)).toMatch(/^\d{6}$/);
      const pending = await ctx.request('GET', '/wallet_transfers/pending', {
        token: recipient.token,
      });
      expect(pending.body.data.map((t: { id: string }) => t.id)).toContain(id);
    });

    it('does not take the sender code twice', async () => {
      const res = await step(sender, id, 'verify_sender', await codeFor(ctx, sender.email, id));
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({
        code: 'TRANSFER_NOT_PENDING',
        meta: { status: 'pending_recipient_acceptance' },
      });
      expect(await available(sender)).toEqual({ available: 90, held: 10 });
    });

    it('lets only whoever controls the destination accept: 403 for the sender, 404 for a stranger', async () => {
      const code = await codeFor(ctx, recipient.email, id);
      expect((await step(sender, id, 'accept', code)).status).toBe(403);
      expect((await step(stranger, id, 'accept', code)).status).toBe(404);
    });

    it('posts the held amount on accept: completed, one journal entry, both histories', async () => {
      const res = await step(recipient, id, 'accept', await codeFor(ctx, recipient.email, id));
      expect(res.status).toBe(200);
      expect(res.body.transfer).toMatchObject({
        status: 'completed',
        expires_at: null,
        attempts_remaining: null,
        transaction_id: expect.any(String),
      });
      expect(await available(sender)).toEqual({ available: 90, held: 0 });
      expect(await available(recipient)).toEqual({ available: 10, held: 0 });
      const history = await ctx.request('GET', `/wallets/${recipient.wallet}/transactions`, {
        token: recipient.token,
      });
      expect(history.body.data[0]).toMatchObject({
        type: 'transfer_request',
        transaction_id: res.body.transfer.transaction_id,
        transfer_id: id,
        direction: 'in',
        amount: 10,
        counterparty_wallet: sender.wallet,
        description: 'rent',
      });
    });

    it('moves nothing when accepted again', async () => {
      const res = await step(recipient, id, 'accept', await codeFor(ctx, recipient.email, id));
      expect(res.status).toBe(409);
      expect(await available(recipient)).toEqual({ available: 10, held: 0 });
      expect((await ctx.audit()).ok).toBe(true);
    });

    it('lists the request for both parties, not for a stranger', async () => {
      for (const user of [sender, recipient]) {
        const res = await ctx.request('GET', '/wallet_transfers', { token: user.token });
        expect(res.status).toBe(200);
        expect(res.body.data.map((t: { id: string }) => t.id)).toContain(id);
        expect(res.body.meta).toMatchObject({ page: 1, per_page: 20 });
      }
      const other = await ctx.request('GET', '/wallet_transfers', { token: stranger.token });
      expect(other.body.data.map((t: { id: string }) => t.id)).not.toContain(id);
      expect(
        (await ctx.request('GET', '/wallet_transfers?per_page=1', { token: sender.token })).body
          .data,
      ).toHaveLength(1);
    });
  });

  it('moves the money once when two accepts race', async () => {
    const before = await available(recipient);
    const id = await reserved(5);
    const code = await codeFor(ctx, recipient.email, id);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => step(recipient, id, 'accept', code)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await available(recipient)).available).toBe(before.available + 5);
    const entries = await ctx.sql('SELECT 1 FROM journal_entry WHERE transfer_request_id = $1', [
      id,
    ]);
    expect(entries).toHaveLength(1);
  });

  it('returns the hold on reject by the recipient; an accept afterwards moves nothing', async () => {
    const before = await available(sender);
    const id = await reserved(7);
    const rejected = await step(recipient, id, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body.transfer).toMatchObject({
      status: 'rejected',
      failure_reason: 'rejected_by_recipient',
    });
    expect(await available(sender)).toEqual(before);
    const late = await step(recipient, id, 'accept', await codeFor(ctx, recipient.email, id));
    expect(late.status).toBe(409);
    expect(late.body.errors[0].meta.status).toBe('rejected');
    expect(await available(sender)).toEqual(before);
  });

  it('lets the sender withdraw a request before verifying it', async () => {
    const created = await create(sender, {
      from_wallet: sender.wallet,
      to_wallet: recipient.wallet,
      amount: 1,
    });
    const res = await step(sender, created.body.transfer.id, 'reject');
    expect(res.body.transfer).toMatchObject({
      status: 'rejected',
      failure_reason: 'rejected_by_sender',
    });
    expect((await step(stranger, created.body.transfer.id, 'reject')).status).toBe(404);
  });

  it('voids the request after 5 wrong recipient codes and returns the hold', async () => {
    const before = await available(sender);
    const id = await reserved(3);
    const code = await codeFor(ctx, recipient.email, id);
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await step(recipient, id, 'accept', wrong(code));
      statuses.push(res.body.errors[0].code);
    }
    expect(statuses).toEqual([
      'INVALID_VERIFICATION_CODE',
      'INVALID_VERIFICATION_CODE',
      'INVALID_VERIFICATION_CODE',
      'INVALID_VERIFICATION_CODE',
      'VERIFICATION_LOCKED',
    ]);
    expect(await available(sender)).toEqual(before);
    const right = await step(recipient, id, 'accept', code);
    expect(right.status).toBe(409);
    expect(right.body.errors[0].meta.status).toBe('rejected');
    const [row] = await ctx.sql<{ failure_reason: string }>(
      'SELECT failure_reason FROM transfer_request WHERE id = $1',
      [id],
    );
    expect(row.failure_reason).toBe('too_many_attempts');
  });

  it('refuses to reserve more than is available (422) and keeps the request and its code', async () => {
    const poor = await ctx.newUser();
    await ctx.credit(poor.wallet, 1);
    const created = await create(poor, {
      from_wallet: poor.wallet,
      to_wallet: recipient.wallet,
      amount: 2,
    });
    const id = created.body.transfer.id as string;
    const code = await codeFor(ctx, poor.email, id);
    const short = await step(poor, id, 'verify_sender', code);
    expect(short.status).toBe(422);
    expect(short.body.errors[0].code).toBe('INSUFFICIENT_FUNDS');
    await ctx.credit(poor.wallet, 1);
    const ok = await step(poor, id, 'verify_sender', code);
    expect(ok.status).toBe(200);
    expect(await available(poor)).toEqual({ available: 0, held: 2 });
  });

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

  describe('validation', () => {
    it.each([
      ['no transfer', {}, '/transfer'],
      ['a string amount', { transfer: { amount: '5' } }, '/transfer/amount'],
      ['a malformed to_wallet', { transfer: { to_wallet: 'x' } }, '/transfer/to_wallet'],
      ['a lower-case asset', { transfer: { asset: 'credits' } }, '/transfer/asset'],
    ])('refuses %s with 400', async (_label, body, pointer) => {
      const res = await ctx.request('POST', '/wallet_transfers', { token: sender.token, body });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });

    it('answers 404 for a foreign source, 422 for an unknown or identical destination or asset', async () => {
      const foreign = await create(stranger, {
        from_wallet: sender.wallet,
        to_wallet: recipient.wallet,
        amount: 1,
      });
      expect(foreign.status).toBe(404);
      const unknown = await create(sender, {
        from_wallet: sender.wallet,
        to_wallet: `0x${'d'.repeat(40)}`,
        amount: 1,
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].code).toBe('RECIPIENT_NOT_FOUND');
      const same = await create(sender, {
        from_wallet: sender.wallet,
        to_wallet: sender.wallet,
        amount: 1,
      });
      expect(same.status).toBe(422);
      const asset = await create(sender, {
        from_wallet: sender.wallet,
        to_wallet: recipient.wallet,
        amount: 1,
        asset: 'GOLD',
      });
      expect(asset.status).toBe(422);
      expect(asset.body.errors[0].code).toBe('UNKNOWN_ASSET');
    });

    it('refuses a malformed id or code with 400 and an unknown id with 404', async () => {
      expect((await step(sender, 'not-a-uuid', 'accept', '123456')).status).toBe(400);
      const created = await create(sender, {
        from_wallet: sender.wallet,
        to_wallet: recipient.wallet,
        amount: 1,
      });
      const id = created.body.transfer.id as string;
      for (const code of ['12345', '1234567', 'abcdef']) {
        const res = await step(sender, id, 'verify_sender', code);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source).toEqual({ pointer: '/verification_code' });
      }
      const missing = await ctx.request('POST', `/wallet_transfers/${id}/verify_sender`, {
        token: sender.token,
        body: { verification_code: 123456 },
      });
      expect(missing.status).toBe(400);
      expect(
        (await step(sender, '6f1c1c9e-8f43-4a57-9d8e-2b1d3b1b0a11', 'accept', '123456')).status,
      ).toBe(404);
      expect(
        (await ctx.request('GET', '/wallet_transfers?page=0', { token: sender.token })).status,
      ).toBe(400);
    });
  });

  it('leaves every hold equal to the reserved requests', async () => {
    expect((await ctx.audit()).problems).toEqual([]);
  });
});

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

import {
  codeFor,
  transferRequestHelpers,
  useTransferRequestWorld,
  wrong,
} from '../support/transfer-requests.js';

/**
 * docs/api.md § Wallets: /wallet_transfers — how a reserved request ends: racing accepts move
 * the money once, reject by the recipient or withdrawal by the sender, lock after 5 wrong codes,
 * insufficient funds at reservation;
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes, 5 attempts.
 */
describe('transfer requests', () => {
  const world = useTransferRequestWorld();

  const { create, step, available, reserved } = transferRequestHelpers(() => world);

  it('moves the money once when two accepts race', async () => {
    const before = await available(world.recipient);
    const id = await reserved(5);
    const code = await codeFor(world.ctx, world.recipient.email, id);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => step(world.recipient, id, 'accept', code)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await available(world.recipient)).available).toBe(before.available + 5);
    const entries = await world.ctx.sql(
      'SELECT 1 FROM journal_entry WHERE transfer_request_id = $1',
      [id],
    );
    expect(entries).toHaveLength(1);
  });

  it('returns the hold on reject by the recipient; an accept afterwards moves nothing', async () => {
    const before = await available(world.sender);
    const id = await reserved(7);
    const rejected = await step(world.recipient, id, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body.transfer).toMatchObject({
      status: 'rejected',
      failure_reason: 'rejected_by_recipient',
    });
    expect(await available(world.sender)).toEqual(before);
    const late = await step(
      world.recipient,
      id,
      'accept',
      await codeFor(world.ctx, world.recipient.email, id),
    );
    expect(late.status).toBe(409);
    expect(late.body.errors[0].meta.status).toBe('rejected');
    expect(await available(world.sender)).toEqual(before);
  });

  it('lets the sender withdraw a request before verifying it', async () => {
    const created = await create(world.sender, {
      from_wallet: world.sender.wallet,
      to_wallet: world.recipient.wallet,
      amount: 1,
    });
    const res = await step(world.sender, created.body.transfer.id, 'reject');
    expect(res.body.transfer).toMatchObject({
      status: 'rejected',
      failure_reason: 'rejected_by_sender',
    });
    expect((await step(world.stranger, created.body.transfer.id, 'reject')).status).toBe(404);
  });

  it('voids the request after 5 wrong recipient codes and returns the hold', async () => {
    const before = await available(world.sender);
    const id = await reserved(3);
    const code = await codeFor(world.ctx, world.recipient.email, id);
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await step(world.recipient, id, 'accept', wrong(code));
      statuses.push(res.body.errors[0].code);
    }
    expect(statuses).toEqual([
      'INVALID_VERIFICATION_CODE',
      'INVALID_VERIFICATION_CODE',
      'INVALID_VERIFICATION_CODE',
      'INVALID_VERIFICATION_CODE',
      'VERIFICATION_LOCKED',
    ]);
    expect(await available(world.sender)).toEqual(before);
    const right = await step(world.recipient, id, 'accept', code);
    expect(right.status).toBe(409);
    expect(right.body.errors[0].meta.status).toBe('rejected');
    const [row] = await world.ctx.sql<{ failure_reason: string }>(
      'SELECT failure_reason FROM transfer_request WHERE id = $1',
      [id],
    );
    expect(row.failure_reason).toBe('too_many_attempts');
  });

  it('refuses to reserve more than is available (422) and keeps the request and its code', async () => {
    const poor = await world.ctx.newUser();
    await world.ctx.credit(poor.wallet, 1);
    const created = await create(poor, {
      from_wallet: poor.wallet,
      to_wallet: world.recipient.wallet,
      amount: 2,
    });
    const id = created.body.transfer.id as string;
    const code = await codeFor(world.ctx, poor.email, id);
    const short = await step(poor, id, 'verify_sender', code);
    expect(short.status).toBe(422);
    expect(short.body.errors[0].code).toBe('INSUFFICIENT_FUNDS');
    await world.ctx.credit(poor.wallet, 1);
    const ok = await step(poor, id, 'verify_sender', code);
    expect(ok.status).toBe(200);
    expect(await available(poor)).toEqual({ available: 0, held: 2 });
  });

  it('leaves every hold equal to the reserved requests', async () => {
    expect((await world.ctx.audit()).problems).toEqual([]);
  });
});

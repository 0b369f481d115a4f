import {
  codeFor,
  transferRequestHelpers,
  useTransferRequestWorld,
  wrong,
} from '../support/transfer-requests.js';

/**
 * docs/api.md § Wallets: /wallet_transfers — the whole flow of one request: create (sender code
 * mailed, nothing moves), pending lists, a wrong and the right sender code (funds reserved,
 * recipient code mailed), who may accept, accept (posted once), lists of both parties;
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes, 5 attempts.
 */
describe('transfer requests', () => {
  const world = useTransferRequestWorld();

  const { create, step, available } = transferRequestHelpers(() => world);

  describe('the whole flow', () => {
    let id: string;

    it('creates a request (201) pending the sender code, mailed to the sender; nothing moves yet', async () => {
      const res = await create(world.sender, {
        from_wallet: world.sender.wallet,
        to_wallet: world.recipient.wallet,
        amount: 10,
        description: 'rent',
      });
      expect(res.status).toBe(201);
      expect(res.body.transfer).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        from_wallet: world.sender.wallet,
        to_wallet: world.recipient.wallet,
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
      const mail = (await world.ctx.enqueued('notify.requested')).find((m) => m.text.includes(id));
      expect(mail).toMatchObject({
        channel: 'email',
        to: world.sender.email,
        template: 'wallet_transfer_sender_code',
      });
      expect(await available(world.sender)).toEqual({ available: 100, held: 0 });
      const stored = await world.ctx.sql<{ code_hmac: string }>(
        'SELECT code_hmac FROM transfer_request WHERE id = $1',
        [id],
      );
      expect(stored[0].code_hmac).not.toContain(await codeFor(world.ctx, world.sender.email, id));
    });

    it('lists it as pending for the sender only', async () => {
      const mine = await world.ctx.request('GET', '/wallet_transfers/pending', {
        token: world.sender.token,
      });
      expect(mine.body.data.map((t: { id: string }) => t.id)).toContain(id);
      const theirs = await world.ctx.request('GET', '/wallet_transfers/pending', {
        token: world.recipient.token,
      });
      expect(theirs.body.data.map((t: { id: string }) => t.id)).not.toContain(id);
    });

    it('counts a wrong sender code (422, attempts_remaining) and reserves nothing', async () => {
      const code = await codeFor(world.ctx, world.sender.email, id);
      const res = await step(world.sender, id, 'verify_sender', wrong(code));
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'INVALID_VERIFICATION_CODE',
        meta: { attempts_remaining: 4 },
      });
      expect(await available(world.sender)).toEqual({ available: 100, held: 0 });
    });

    it('reserves the amount on the right sender code and mails the recipient a code', async () => {
      const res = await step(
        world.sender,
        id,
        'verify_sender',
        await codeFor(world.ctx, world.sender.email, id),
      );
      expect(res.status).toBe(200);
      expect(res.body.transfer).toMatchObject({
        status: 'pending_recipient_acceptance',
        attempts_remaining: 5,
      });
      expect(await available(world.sender)).toEqual({ available: 90, held: 10 });
      expect(await codeFor(world.ctx, world.recipient.email, id)).toMatch(/^\d{6}$/);
      const pending = await world.ctx.request('GET', '/wallet_transfers/pending', {
        token: world.recipient.token,
      });
      expect(pending.body.data.map((t: { id: string }) => t.id)).toContain(id);
    });

    it('does not take the sender code twice', async () => {
      const res = await step(
        world.sender,
        id,
        'verify_sender',
        await codeFor(world.ctx, world.sender.email, id),
      );
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({
        code: 'TRANSFER_NOT_PENDING',
        meta: { status: 'pending_recipient_acceptance' },
      });
      expect(await available(world.sender)).toEqual({ available: 90, held: 10 });
    });

    it('lets only whoever controls the destination accept: 403 for the sender, 404 for a stranger', async () => {
      const code = await codeFor(world.ctx, world.recipient.email, id);
      expect((await step(world.sender, id, 'accept', code)).status).toBe(403);
      expect((await step(world.stranger, id, 'accept', code)).status).toBe(404);
    });

    it('posts the held amount on accept: completed, one journal entry, both histories', async () => {
      const res = await step(
        world.recipient,
        id,
        'accept',
        await codeFor(world.ctx, world.recipient.email, id),
      );
      expect(res.status).toBe(200);
      expect(res.body.transfer).toMatchObject({
        status: 'completed',
        expires_at: null,
        attempts_remaining: null,
        transaction_id: expect.any(String),
      });
      expect(await available(world.sender)).toEqual({ available: 90, held: 0 });
      expect(await available(world.recipient)).toEqual({ available: 10, held: 0 });
      const history = await world.ctx.request(
        'GET',
        `/wallets/${world.recipient.wallet}/transactions`,
        {
          token: world.recipient.token,
        },
      );
      expect(history.body.data[0]).toMatchObject({
        type: 'transfer_request',
        transaction_id: res.body.transfer.transaction_id,
        transfer_id: id,
        direction: 'in',
        amount: 10,
        counterparty_wallet: world.sender.wallet,
        description: 'rent',
      });
    });

    it('moves nothing when accepted again', async () => {
      const res = await step(
        world.recipient,
        id,
        'accept',
        await codeFor(world.ctx, world.recipient.email, id),
      );
      expect(res.status).toBe(409);
      expect(await available(world.recipient)).toEqual({ available: 10, held: 0 });
      expect((await world.ctx.audit()).ok).toBe(true);
    });

    it('lists the request for both parties, not for a stranger', async () => {
      for (const user of [world.sender, world.recipient]) {
        const res = await world.ctx.request('GET', '/wallet_transfers', { token: user.token });
        expect(res.status).toBe(200);
        expect(res.body.data.map((t: { id: string }) => t.id)).toContain(id);
        expect(res.body.meta).toMatchObject({ page: 1, per_page: 20 });
      }
      const other = await world.ctx.request('GET', '/wallet_transfers', {
        token: world.stranger.token,
      });
      expect(other.body.data.map((t: { id: string }) => t.id)).not.toContain(id);
      expect(
        (
          await world.ctx.request('GET', '/wallet_transfers?per_page=1', {
            token: world.sender.token,
          })
        ).body.data,
      ).toHaveLength(1);
    });
  });

  it('leaves every hold equal to the reserved requests', async () => {
    expect((await world.ctx.audit()).problems).toEqual([]);
  });
});

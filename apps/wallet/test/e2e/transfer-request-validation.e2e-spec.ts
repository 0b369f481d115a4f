import { transferRequestHelpers, useTransferRequestWorld } from '../support/transfer-requests.js';

/**
 * docs/api.md § Wallets: /wallet_transfers — validation: malformed bodies, ids and codes (400),
 * foreign sources (404), unknown or identical destinations and unknown assets (422);
 * docs/architecture.md § Transfer requests: two-phase (reserve on verify_sender, post on accept,
 * void on reject / expiry / too many wrong codes), HMAC'd 6-digit codes mailed through
 * `notify.requested`, 10-minute codes, 5 attempts.
 */
describe('transfer requests', () => {
  const world = useTransferRequestWorld();

  const { create, step } = transferRequestHelpers(() => world);

  describe('validation', () => {
    it.each([
      ['no transfer', {}, '/transfer'],
      ['a string amount', { transfer: { amount: '5' } }, '/transfer/amount'],
      ['a malformed to_wallet', { transfer: { to_wallet: 'x' } }, '/transfer/to_wallet'],
      ['a lower-case asset', { transfer: { asset: 'credits' } }, '/transfer/asset'],
    ])('refuses %s with 400', async (_label, body, pointer) => {
      const res = await world.ctx.request('POST', '/wallet_transfers', {
        token: world.sender.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });

    it('answers 404 for a foreign source, 422 for an unknown or identical destination or asset', async () => {
      const foreign = await create(world.stranger, {
        from_wallet: world.sender.wallet,
        to_wallet: world.recipient.wallet,
        amount: 1,
      });
      expect(foreign.status).toBe(404);
      const unknown = await create(world.sender, {
        from_wallet: world.sender.wallet,
        to_wallet: `0x${'d'.repeat(40)}`,
        amount: 1,
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].code).toBe('RECIPIENT_NOT_FOUND');
      const same = await create(world.sender, {
        from_wallet: world.sender.wallet,
        to_wallet: world.sender.wallet,
        amount: 1,
      });
      expect(same.status).toBe(422);
      const asset = await create(world.sender, {
        from_wallet: world.sender.wallet,
        to_wallet: world.recipient.wallet,
        amount: 1,
        asset: 'GOLD',
      });
      expect(asset.status).toBe(422);
      expect(asset.body.errors[0].code).toBe('UNKNOWN_ASSET');
    });

    it('refuses a malformed id or code with 400 and an unknown id with 404', async () => {
      expect((await step(world.sender, 'not-a-uuid', 'accept', '123456')).status).toBe(400);
      const created = await create(world.sender, {
        from_wallet: world.sender.wallet,
        to_wallet: world.recipient.wallet,
        amount: 1,
      });
      const id = created.body.transfer.id as string;
      for (const code of ['12345', '1234567', 'abcdef']) {
        const res = await step(world.sender, id, 'verify_sender', code);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].source).toEqual({ pointer: '/verification_code' });
      }
      const missing = await world.ctx.request('POST', `/wallet_transfers/${id}/verify_sender`, {
        token: world.sender.token,
        body: { verification_code: 123456 },
      });
      expect(missing.status).toBe(400);
      expect(
        (await step(world.sender, '6f1c1c9e-8f43-4a57-9d8e-2b1d3b1b0a11', 'accept', '123456'))
          .status,
      ).toBe(404);
      expect(
        (await world.ctx.request('GET', '/wallet_transfers?page=0', { token: world.sender.token }))
          .status,
      ).toBe(400);
    });
  });

  it('leaves every hold equal to the reserved requests', async () => {
    expect((await world.ctx.audit()).problems).toEqual([]);
  });
});

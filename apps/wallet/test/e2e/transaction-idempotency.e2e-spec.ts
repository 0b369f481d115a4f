import { randomUUID } from 'node:crypto';
import { movementHelpers, useMovementWorld, transfer } from '../support/movements.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/transact with `Idempotency-Key`;
 * docs/architecture.md § Decisions where the contract is silent (idempotency): a retry answers
 * the original movement, a reused key with another request is 409, keys are per caller, failed
 * attempts are not remembered.
 */
describe('transactions', () => {
  const world = useMovementWorld();

  const { transact, balance } = movementHelpers(() => world.ctx);

  describe('Idempotency-Key on transact', () => {
    it('answers a retry with the original movement and moves the money once', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 10);
      const key = randomUUID();
      const body = transfer(user.wallet, world.bob.wallet, 3);
      const first = await transact(user, body, { 'idempotency-key': key });
      const second = await transact(user, body, { 'idempotency-key': key });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.body).toEqual(first.body);
      expect(await balance(user, user.wallet)).toBe(7);
    });

    it('answers 409 when the key comes back with a different request, and moves nothing', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 10);
      const key = randomUUID();
      await transact(user, transfer(user.wallet, world.bob.wallet, 3), { 'idempotency-key': key });
      const reused = await transact(user, transfer(user.wallet, world.bob.wallet, 4), {
        'idempotency-key': key,
      });
      expect(reused.status).toBe(409);
      expect(reused.body.errors[0]).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
        source: { header: 'Idempotency-Key' },
      });
      expect(await balance(user, user.wallet)).toBe(7);
    });

    it('scopes keys to the caller: another user’s equal key is another movement', async () => {
      const one = await world.ctx.newUser();
      const two = await world.ctx.newUser();
      await world.ctx.credit(one.wallet, 5);
      await world.ctx.credit(two.wallet, 5);
      const key = 'shared-key-1';
      expect(
        (await transact(one, transfer(one.wallet, world.bob.wallet, 1), { 'idempotency-key': key }))
          .status,
      ).toBe(201);
      const other = await transact(two, transfer(two.wallet, world.bob.wallet, 1), {
        'idempotency-key': key,
      });
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect(await balance(two, two.wallet)).toBe(4);
    });

    it('retries a request that failed: a failed attempt is not remembered', async () => {
      const user = await world.ctx.newUser();
      const key = randomUUID();
      const body = transfer(user.wallet, world.bob.wallet, 2);
      expect((await transact(user, body, { 'idempotency-key': key })).status).toBe(422);
      await world.ctx.credit(user.wallet, 2);
      expect((await transact(user, body, { 'idempotency-key': key })).status).toBe(201);
      expect(await balance(user, user.wallet)).toBe(0);
    });

    it('refuses a malformed key with 400', async () => {
      const res = await transact(world.alice, transfer(world.alice.wallet, world.bob.wallet, 1), {
        'idempotency-key': 'has spaces in it',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ header: 'Idempotency-Key' });
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await world.ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

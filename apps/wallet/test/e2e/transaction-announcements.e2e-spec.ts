import { randomUUID } from 'node:crypto';
import { TransactionPosted, webhookEventsFromBus } from '@wp/contracts';
import { Amount } from '../../src/common/amount.js';
import { LedgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { movementHelpers, transfer, useMovementWorld } from '../support/movements.js';
import type { TestOrganization } from '../support/wallet-test-context.js';

/**
 * docs/webhooks.md § Transaction events and the transfer path: `wallet.transaction.posted` is
 * written in the statement that posts a debit, transfer or conversion, only for wallets of
 * organizations whose endpoints take transaction events (`org.webhook_subscriptions.changed`),
 * once per movement (not for idempotent replays, not for movements between personal wallets),
 * also when movements are committed together (group commit).
 */
describe('transaction announcements (webhooks)', () => {
  const world = useMovementWorld();
  const { transact } = movementHelpers(() => world.ctx);
  let acme: TestOrganization;
  let other: TestOrganization;

  const posted = async () =>
    (await world.ctx.enqueued('wallet.transaction.posted')).map((p) => TransactionPosted.parse(p));
  const hint = (organizationId: number, transactionEvents: boolean, version: number) =>
    world.ctx.publish('org.webhook_subscriptions.changed', {
      organizationId,
      transactionEvents,
      version,
    });

  beforeAll(async () => {
    acme = await world.ctx.newOrganization(world.alice, 'Acme');
    other = await world.ctx.newOrganization(world.bob, 'Other');
    await world.ctx.credit(world.alice.wallet, 1000);
    await world.ctx.credit(acme.wallet, 1000);
    await world.ctx.credit(other.wallet, 1000);
  });

  it('writes nothing while no organization wants transaction events', async () => {
    expect((await transact(world.alice, transfer(acme.wallet, other.wallet, 1))).status).toBe(201);
    expect((await transact(world.alice, transfer(world.alice.wallet, acme.wallet, 1))).status).toBe(
      201,
    );
    expect(await posted()).toEqual([]);
  });

  it('announces a transfer touching a subscribed organization, for that side only', async () => {
    await hint(acme.id, true, 1);
    const res = await transact(
      world.alice,
      transfer(world.alice.wallet, acme.wallet, 2.5, { description: 'top-up' }),
    );
    expect(res.status).toBe(201);
    const [event] = await posted();
    expect(event).toEqual({
      transactionId: res.body.transaction.id,
      kind: 'transfer',
      fromWallet: world.alice.wallet,
      toWallet: acme.wallet,
      amount: expect.stringMatching(/^2\.50*$/),
      asset: 'CREDITS',
      toAmount: expect.stringMatching(/^2\.50*$/),
      toAsset: 'CREDITS',
      description: 'top-up',
      referenceId: null,
      transferId: null,
      createdAt: expect.any(String),
      actor: { type: 'user', id: world.alice.id },
      tenants: [{ organizationId: acme.id, projectId: null }],
    });
    // What org makes of it: one public event for Acme.
    const envelope = {
      id: randomUUID(),
      subject: 'wallet.transaction.posted' as const,
      occurredAt: event.createdAt,
      payload: event,
    };
    expect(webhookEventsFromBus(envelope)).toEqual([
      expect.objectContaining({
        type: 'transaction.posted',
        organization_id: String(acme.id),
        data: expect.objectContaining({ amount: 2.5, kind: 'transfer' }),
      }),
    ]);
  });

  it('announces debits, not idempotent replays nor movements outside subscribed organizations', async () => {
    const before = (await posted()).length;
    const debit = await world.ctx.request('POST', `/wallets/${acme.wallet}/debits`, {
      token: world.alice.token,
      body: { debit: { amount: 3, description: 'fee', reference_id: 'fee-1' } },
    });
    expect(debit.status).toBe(201);
    const replay = await world.ctx.request('POST', `/wallets/${acme.wallet}/debits`, {
      token: world.alice.token,
      body: { debit: { amount: 3, description: 'fee', reference_id: 'fee-1' } },
    });
    expect(replay.status).toBe(201);
    expect((await transact(world.bob, transfer(other.wallet, world.bob.wallet, 1))).status).toBe(
      201,
    );
    expect(
      (await transact(world.alice, transfer(world.alice.wallet, world.bob.wallet, 1))).status,
    ).toBe(201);
    const added = (await posted()).slice(before);
    expect(added.map((p) => [p.kind, p.fromWallet, p.toWallet, p.referenceId])).toEqual([
      ['debit', acme.wallet, null, 'fee-1'],
    ]);
  });

  it('announces each of many transfers committed together exactly once', async () => {
    const before = (await posted()).length;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        transact(world.alice, transfer(world.alice.wallet, acme.wallet, 1)),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const added = (await posted()).slice(before);
    expect(added.map((p) => p.transactionId).sort()).toEqual(
      answers.map((a) => a.body.transaction.id as string).sort(),
    );
  });

  it('announces the successful items of one group commit (wallet_move_batch), not the failed', async () => {
    const before = (await posted()).length;
    const item = (to: string, amount: string) => ({
      type: 'transfer' as const,
      from: world.alice.wallet,
      fromAsset: 'CREDITS',
      amount: Amount.fromNumeric(amount),
      to,
      toAsset: 'CREDITS',
      description: 'batched',
      metadata: {},
      referenceId: null,
      initiatedBy: world.alice.id,
      actorType: 'user' as const,
      idempotency: null,
    });
    const results = await world.ctx.app
      .get(LedgerRepository)
      .moveBatch([
        item(acme.wallet, '1'),
        item(world.bob.wallet, '1'),
        item(acme.wallet, '999999'),
        item(acme.wallet, '2'),
      ]);
    expect(results.map((r) => ('entryId' in r ? 'ok' : r.code))).toEqual([
      'ok',
      'ok',
      'WL001',
      'ok',
    ]);
    const added = (await posted()).slice(before);
    expect(added.map((p) => [p.transactionId, p.amount.replace(/\.?0+$/, ''), p.toWallet])).toEqual(
      [
        [(results[0] as { entryId: string }).entryId, '1', acme.wallet],
        [(results[3] as { entryId: string }).entryId, '2', acme.wallet],
      ],
    );
    expect(added.every((p) => p.description === 'batched')).toBe(true);
  });

  it('stops when the organization no longer wants them; an older hint does not restart it', async () => {
    await hint(acme.id, false, 2);
    await hint(acme.id, true, 1); // a late redelivery of the first state
    const before = (await posted()).length;
    expect((await transact(world.alice, transfer(world.alice.wallet, acme.wallet, 1))).status).toBe(
      201,
    );
    expect((await posted()).length).toBe(before);
    expect((await world.ctx.audit()).problems).toEqual([]);
  });
});

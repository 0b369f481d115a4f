import { TransferRequestChanged, webhookEventsFromBus } from '@wp/contracts';
import {
  codeFor,
  transferRequestHelpers,
  useTransferRequestWorld,
} from '../support/transfer-requests.js';
import type { TestOrganization, TestUser } from '../support/wallet-test-context.js';

/**
 * docs/webhooks.md § Sources: a transfer request from or to an organization's wallet announces
 * its steps to org's webhooks (`wallet.transfer_request.changed`, outbox, in the step's
 * transaction) when it is made, completed, rejected or expires; never its codes; nothing for
 * requests between personal wallets.
 */
describe('transfer request announcements (webhooks)', () => {
  const world = useTransferRequestWorld();
  const { create, step } = transferRequestHelpers(() => world);
  let owner: TestUser;
  let acme: TestOrganization;

  const changes = async () =>
    (await world.ctx.enqueued('wallet.transfer_request.changed')).map((p) =>
      TransferRequestChanged.parse(p),
    );

  beforeAll(async () => {
    owner = await world.ctx.newUser();
    acme = await world.ctx.newOrganization(owner, 'Acme');
  });

  it('writes nothing for a request between personal wallets', async () => {
    const created = await create(world.sender, {
      from_wallet: world.sender.wallet,
      to_wallet: world.recipient.wallet,
      amount: 1,
    });
    expect(created.status).toBe(201);
    expect(await changes()).toEqual([]);
  });

  it('announces creation and completion of a request to an organization wallet', async () => {
    const created = await create(world.sender, {
      from_wallet: world.sender.wallet,
      to_wallet: acme.wallet,
      amount: 4,
      description: 'dues',
    });
    expect(created.status).toBe(201);
    const id = created.body.transfer.id as string;
    const verified = await step(
      world.sender,
      id,
      'verify_sender',
      await codeFor(world.ctx, world.sender.email, id),
    );
    expect(verified.status).toBe(200);
    const accepted = await step(owner, id, 'accept', await codeFor(world.ctx, owner.email, id));
    expect(accepted.status).toBe(200);

    const mine = (await changes()).filter((c) => c.transferId === id);
    expect(mine.map((c) => [c.status, c.actor])).toEqual([
      ['pending_sender_verification', { type: 'user', id: world.sender.id }],
      ['completed', { type: 'user', id: owner.id }],
    ]);
    expect(mine[1]).toMatchObject({
      fromWallet: world.sender.wallet,
      toWallet: acme.wallet,
      amount: expect.stringMatching(/^4(\.0*)?$/),
      description: 'dues',
      transactionId: accepted.body.transfer.transaction_id,
      tenants: [{ organizationId: acme.id, projectId: null }],
    });
    // Codes travel in mails only: no 6-digit run of the mailed codes is in any payload.
    const codes = (await world.ctx.enqueued('notify.requested'))
      .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1])
      .filter((c): c is string => c !== undefined);
    for (const change of mine) {
      for (const code of codes) expect(JSON.stringify(change)).not.toContain(code);
    }
    const [event] = webhookEventsFromBus({
      id: '1f2e3d4c-5b6a-4789-8a7b-6c5d4e3f2a1b',
      subject: 'wallet.transfer_request.changed',
      occurredAt: mine[1].updatedAt,
      payload: mine[1],
    });
    expect(event).toMatchObject({
      type: 'transfer_request.accepted',
      organization_id: String(acme.id),
      data: { id, status: 'completed', amount: 4 },
    });
  });

  it('announces a rejection with its reason and who rejected', async () => {
    const created = await create(world.sender, {
      from_wallet: world.sender.wallet,
      to_wallet: acme.wallet,
      amount: 2,
    });
    const id = created.body.transfer.id as string;
    expect((await step(world.sender, id, 'reject')).status).toBe(200);
    const last = (await changes()).filter((c) => c.transferId === id).pop();
    expect(last).toMatchObject({
      status: 'rejected',
      failureReason: 'rejected_by_sender',
      actor: { type: 'user', id: world.sender.id },
    });
  });
});

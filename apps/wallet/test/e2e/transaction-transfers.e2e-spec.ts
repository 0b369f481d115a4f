import { movementHelpers, useMovementWorld, transfer } from '../support/movements.js';
import type { TestOrganization } from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/transact between wallets;
 * docs/architecture.md § Decisions where the contract is silent (amounts, assets, who may move
 * money): the movement and both histories, insufficient funds, 8-decimal amounts, 404/403 by
 * role (applied to the very next movement), closed and deleted wallets, unknown recipients and
 * assets.
 * Conversion rates from config (apps/wallet/test/support/movements.ts): USD→CREDITS 100,
 * CREDITS→USD 0.01, EUR offered but never convertible.
 */
describe('transactions', () => {
  const world = useMovementWorld();

  const { transact, balance, entries } = movementHelpers(() => world.ctx);

  describe('POST /wallets/transact: transfers', () => {
    it('moves money between wallets and answers 201 with the movement', async () => {
      await world.ctx.credit(world.alice.wallet, 100);
      const res = await transact(
        world.alice,
        transfer(world.alice.wallet, world.bob.wallet, 12.5, {
          description: 'lunch',
          metadata: { k: 'v' },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.transaction).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'transfer',
        status: 'completed',
        from_wallet: world.alice.wallet,
        to_wallet: world.bob.wallet,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount: 12.5,
        to_amount: 12.5,
        rate: null,
        description: 'lunch',
        metadata: { k: 'v' },
        reference_id: null,
        balance_after: 87.5,
        to_balance_after: null,
        created_at: expect.any(String),
      });
      expect(await balance(world.alice, world.alice.wallet)).toBe(87.5);
      expect(await balance(world.bob, world.bob.wallet)).toBe(12.5);
    });

    it('records the movement in both histories, newest first, with counterparty and balance_after', async () => {
      const res = await world.ctx.request('GET', `/wallets/${world.bob.wallet}/transactions`, {
        token: world.bob.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toEqual({
        id: expect.stringMatching(/^\d+$/),
        transaction_id: expect.any(String),
        type: 'transfer',
        amount: 12.5,
        asset: 'CREDITS',
        direction: 'in',
        counterparty_wallet: world.alice.wallet,
        description: 'lunch',
        metadata: { k: 'v' },
        reference_id: null,
        transfer_id: null,
        balance_after: 12.5,
        created_at: expect.any(String),
      });
      const mine = await world.ctx.request('GET', `/wallets/${world.alice.wallet}/transactions`, {
        token: world.alice.token,
      });
      expect(
        mine.body.data.map((t: { type: string; direction: string }) => [t.type, t.direction]),
      ).toEqual([
        ['transfer', 'out'],
        ['credit', 'in'],
      ]);
      expect(mine.body.data[0].transaction_id).toBe(res.body.data[0].transaction_id);
      expect(mine.body.meta).toEqual({ page: 1, per_page: 20, total_count: 2, total_pages: 1 });
    });

    it('refuses a transfer above the balance with 422 INSUFFICIENT_FUNDS and moves nothing', async () => {
      const before = await entries();
      const res = await transact(world.alice, transfer(world.alice.wallet, world.bob.wallet, 1000));
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'INSUFFICIENT_FUNDS',
        source: { pointer: '/transaction/amount' },
      });
      expect(await balance(world.alice, world.alice.wallet)).toBe(87.5);
      expect(await balance(world.bob, world.bob.wallet)).toBe(12.5);
      expect(await entries()).toBe(before);
    });

    it('keeps every digit of 8-decimal amounts, in and out', async () => {
      const user = await world.ctx.newUser();
      await world.ctx.credit(user.wallet, 12345678.12345678);
      await world.ctx.credit(user.wallet, 0.00000001);
      const res = await world.ctx.request('GET', `/wallets/${user.wallet}`, { token: user.token });
      expect(JSON.stringify(res.body)).toContain('"balance":12345678.12345679');
      const rows = await world.ctx.sql<{ available: string }>(
        'SELECT available::text FROM balance WHERE wallet_address = $1',
        [user.wallet],
      );
      expect(rows[0].available).toBe('12345678.12345679');
    });

    it('answers 404 when the caller cannot see from_wallet, 403 when they see but do not control it', async () => {
      const foreign = await transact(world.bob, transfer(world.alice.wallet, world.bob.wallet, 1));
      expect(foreign.status).toBe(404);
      const org: TestOrganization = await world.ctx.newOrganization(world.alice, 'Payers');
      await world.ctx.credit(org.wallet, 10);
      const member = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const byMember = await transact(member, transfer(org.wallet, member.wallet, 1));
      expect(byMember.status).toBe(403);
      expect(byMember.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const admin = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, admin, 'ADMIN');
      const byAdmin = await transact(admin, transfer(org.wallet, admin.wallet, 1));
      expect(byAdmin.status).toBe(201);
      expect(await balance(admin, admin.wallet)).toBe(1);
    });

    it('applies a role change to the very next movement, also for a wallet it has moved money from before', async () => {
      const org = await world.ctx.newOrganization(world.alice, 'Demotions');
      await world.ctx.credit(org.wallet, 10);
      const admin = await world.ctx.newUser();
      await world.ctx.setOrganizationRole(org.id, admin, 'ADMIN');
      const pay = () => transact(admin, transfer(org.wallet, admin.wallet, 1));
      expect((await pay()).status).toBe(201);
      expect((await pay()).status).toBe(201);
      await world.ctx.setOrganizationRole(org.id, admin, 'MEMBER');
      expect((await pay()).status).toBe(403);
      await world.ctx.setOrganizationRole(org.id, admin, null);
      expect((await pay()).status).toBe(404);
      expect(await balance(world.alice, org.wallet)).toBe(8);
    });

    it('refuses to move money out of a wallet closed after it was last used (422 WALLET_CLOSED)', async () => {
      const org = await world.ctx.newOrganization(world.alice, 'Closing later');
      const project = await world.ctx.newProject(org.id);
      const created = await world.ctx.request('POST', '/wallets/create_entity_wallet', {
        token: world.alice.token,
        body: {
          entity_wallet: {
            entity_type: 'project',
            entity_id: String(project),
            entity_name: 'Short-lived',
            metadata: { organization_id: org.id },
          },
        },
      });
      const wallet = created.body.wallet.address_hash as string;
      await world.ctx.credit(wallet, 10);
      expect((await transact(world.alice, transfer(wallet, world.alice.wallet, 1))).status).toBe(
        201,
      );
      await world.ctx.publish('org.project.deleted', {
        organizationId: org.id,
        projectId: project,
      });
      const after = await transact(world.alice, transfer(wallet, world.alice.wallet, 1));
      expect(after.status).toBe(422);
      expect(after.body.errors[0]).toMatchObject({
        code: 'WALLET_CLOSED',
        source: { pointer: '/transaction/from_wallet' },
      });
      const debit = await world.ctx.request('POST', `/wallets/${wallet}/debits`, {
        token: world.alice.token,
        body: { debit: { amount: 1, description: 'x' } },
      });
      expect(debit.status).toBe(422);
      expect((await world.ctx.walletOf(world.alice, wallet)).balance).toBe(9);
    });

    it('hides the wallets of a deleted organization from its former members (404)', async () => {
      const org = await world.ctx.newOrganization(world.alice, 'Gone');
      await world.ctx.credit(org.wallet, 10);
      expect(
        (await transact(world.alice, transfer(org.wallet, world.alice.wallet, 1))).status,
      ).toBe(201);
      await world.ctx.publish('org.organization.deleted', { organizationId: org.id });
      expect(
        (await transact(world.alice, transfer(org.wallet, world.alice.wallet, 1))).status,
      ).toBe(404);
      const [row] = await world.ctx.sql<{ available: string; closed: boolean }>(
        `SELECT b.available::text, w.closed_at IS NOT NULL AS closed
         FROM balance b JOIN wallet w ON w.address_hash = b.wallet_address
         WHERE b.wallet_address = $1`,
        [org.wallet],
      );
      expect(row).toEqual({ available: '9.00000000', closed: true });
    });

    it('sends to any existing wallet, and refuses an unknown one with 422 RECIPIENT_NOT_FOUND', async () => {
      const unknown = await transact(
        world.alice,
        transfer(world.alice.wallet, `0x${'b'.repeat(40)}`, 1),
      );
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0]).toMatchObject({
        code: 'RECIPIENT_NOT_FOUND',
        source: { pointer: '/transaction/to_wallet' },
      });
    });

    it('refuses different wallets with different assets (422) and the same wallet and asset (422)', async () => {
      const cross = await transact(world.alice, {
        ...transfer(world.alice.wallet, world.bob.wallet, 1),
        to_asset: 'USD',
      });
      expect(cross.status).toBe(422);
      expect(cross.body.errors[0].code).toBe('CROSS_ASSET_TRANSFER_NOT_SUPPORTED');
      const same = await transact(world.alice, transfer(world.alice.wallet, world.alice.wallet, 1));
      expect(same.status).toBe(422);
      expect(same.body.errors[0].code).toBe('NOTHING_TO_MOVE');
    });

    it('refuses an asset that is not offered with 422 UNKNOWN_ASSET', async () => {
      const res = await transact(world.alice, {
        ...transfer(world.alice.wallet, world.bob.wallet, 1),
        from_asset: 'GOLD',
        to_asset: 'GOLD',
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'UNKNOWN_ASSET',
        source: { pointer: '/transaction/from_asset' },
      });
    });

    it('answers 401 without a token and never moves money', async () => {
      const res = await world.ctx.request('POST', '/wallets/transact', {
        body: { transaction: transfer(world.alice.wallet, world.bob.wallet, 1) },
      });
      expect(res.status).toBe(401);
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await world.ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

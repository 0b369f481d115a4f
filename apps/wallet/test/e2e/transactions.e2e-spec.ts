import { randomUUID } from 'node:crypto';
import {
  WalletTestContext,
  type TestOrganization,
  type TestUser,
} from '../support/wallet-test-context.js';

/**
 * docs/api.md § Wallets ({wallet_url}): POST /wallets/transact, /debits, /credits (Authentication
 * 8: `Admin-Access`), GET /wallets/{addressHash}/transactions;
 * docs/architecture.md § Decisions where the contract is silent (amounts, assets and conversion,
 * who may move money, idempotency). Conversion rates from config: USD→CREDITS 100, CREDITS→USD
 * 0.01, EUR offered but never convertible.
 */
describe('transactions', () => {
  let ctx: WalletTestContext;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ctx = await WalletTestContext.start({
      WALLET_ASSETS: 'CREDITS,USD,EUR',
      WALLET_CONVERSION_RATES: 'USD:CREDITS=100,CREDITS:USD=0.01',
    });
    alice = await ctx.newUser();
    bob = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  const transact = (
    user: { token: string },
    transaction: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    ctx.request('POST', '/wallets/transact', { token: user.token, body: { transaction }, headers });

  const transfer = (
    from: string,
    to: string,
    amount: unknown,
    extra: Record<string, unknown> = {},
  ) => ({
    from_wallet: from,
    to_wallet: to,
    from_asset: 'CREDITS',
    to_asset: 'CREDITS',
    amount,
    ...extra,
  });

  const balance = async (user: { token: string }, address: string, asset = 'CREDITS') =>
    (await ctx.walletOf(user, address)).balances[asset]?.available ?? 0;

  const entries = async () =>
    (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'))[0].n;

  describe('POST /wallets/transact: transfers', () => {
    it('moves money between wallets and answers 201 with the movement', async () => {
      await ctx.credit(alice.wallet, 100);
      const res = await transact(
        alice,
        transfer(alice.wallet, bob.wallet, 12.5, { description: 'lunch', metadata: { k: 'v' } }),
      );
      expect(res.status).toBe(201);
      expect(res.body.transaction).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'transfer',
        status: 'completed',
        from_wallet: alice.wallet,
        to_wallet: bob.wallet,
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
      expect(await balance(alice, alice.wallet)).toBe(87.5);
      expect(await balance(bob, bob.wallet)).toBe(12.5);
    });

    it('records the movement in both histories, newest first, with counterparty and balance_after', async () => {
      const res = await ctx.request('GET', `/wallets/${bob.wallet}/transactions`, {
        token: bob.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toEqual({
        id: expect.stringMatching(/^\d+$/),
        transaction_id: expect.any(String),
        type: 'transfer',
        amount: 12.5,
        asset: 'CREDITS',
        direction: 'in',
        counterparty_wallet: alice.wallet,
        description: 'lunch',
        metadata: { k: 'v' },
        reference_id: null,
        transfer_id: null,
        balance_after: 12.5,
        created_at: expect.any(String),
      });
      const mine = await ctx.request('GET', `/wallets/${alice.wallet}/transactions`, {
        token: alice.token,
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
      const res = await transact(alice, transfer(alice.wallet, bob.wallet, 1000));
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'INSUFFICIENT_FUNDS',
        source: { pointer: '/transaction/amount' },
      });
      expect(await balance(alice, alice.wallet)).toBe(87.5);
      expect(await balance(bob, bob.wallet)).toBe(12.5);
      expect(await entries()).toBe(before);
    });

    it('keeps every digit of 8-decimal amounts, in and out', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 12345678.12345678);
      await ctx.credit(user.wallet, 0.00000001);
      const res = await ctx.request('GET', `/wallets/${user.wallet}`, { token: user.token });
      expect(JSON.stringify(res.body)).toContain('"balance":12345678.12345679');
      const rows = await ctx.sql<{ available: string }>(
        'SELECT available::text FROM balance WHERE wallet_address = $1',
        [user.wallet],
      );
      expect(rows[0].available).toBe('12345678.12345679');
    });

    it('answers 404 when the caller cannot see from_wallet, 403 when they see but do not control it', async () => {
      const foreign = await transact(bob, transfer(alice.wallet, bob.wallet, 1));
      expect(foreign.status).toBe(404);
      const org: TestOrganization = await ctx.newOrganization(alice, 'Payers');
      await ctx.credit(org.wallet, 10);
      const member = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const byMember = await transact(member, transfer(org.wallet, member.wallet, 1));
      expect(byMember.status).toBe(403);
      expect(byMember.body.errors[0].code).toBe('INSUFFICIENT_PERMISSIONS');
      const admin = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, admin, 'ADMIN');
      const byAdmin = await transact(admin, transfer(org.wallet, admin.wallet, 1));
      expect(byAdmin.status).toBe(201);
      expect(await balance(admin, admin.wallet)).toBe(1);
    });

    it('applies a role change to the very next movement, also for a wallet it has moved money from before', async () => {
      const org = await ctx.newOrganization(alice, 'Demotions');
      await ctx.credit(org.wallet, 10);
      const admin = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, admin, 'ADMIN');
      const pay = () => transact(admin, transfer(org.wallet, admin.wallet, 1));
      expect((await pay()).status).toBe(201);
      expect((await pay()).status).toBe(201);
      await ctx.setOrganizationRole(org.id, admin, 'MEMBER');
      expect((await pay()).status).toBe(403);
      await ctx.setOrganizationRole(org.id, admin, null);
      expect((await pay()).status).toBe(404);
      expect(await balance(alice, org.wallet)).toBe(8);
    });

    it('refuses to move money out of a wallet closed after it was last used (422 WALLET_CLOSED)', async () => {
      const org = await ctx.newOrganization(alice, 'Closing later');
      const project = await ctx.newProject(org.id);
      const created = await ctx.request('POST', '/wallets/create_entity_wallet', {
        token: alice.token,
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
      await ctx.credit(wallet, 10);
      expect((await transact(alice, transfer(wallet, alice.wallet, 1))).status).toBe(201);
      await ctx.publish('org.project.deleted', { organizationId: org.id, projectId: project });
      const after = await transact(alice, transfer(wallet, alice.wallet, 1));
      expect(after.status).toBe(422);
      expect(after.body.errors[0]).toMatchObject({
        code: 'WALLET_CLOSED',
        source: { pointer: '/transaction/from_wallet' },
      });
      const debit = await ctx.request('POST', `/wallets/${wallet}/debits`, {
        token: alice.token,
        body: { debit: { amount: 1, description: 'x' } },
      });
      expect(debit.status).toBe(422);
      expect((await ctx.walletOf(alice, wallet)).balance).toBe(9);
    });

    it('hides the wallets of a deleted organization from its former members (404)', async () => {
      const org = await ctx.newOrganization(alice, 'Gone');
      await ctx.credit(org.wallet, 10);
      expect((await transact(alice, transfer(org.wallet, alice.wallet, 1))).status).toBe(201);
      await ctx.publish('org.organization.deleted', { organizationId: org.id });
      expect((await transact(alice, transfer(org.wallet, alice.wallet, 1))).status).toBe(404);
      const [row] = await ctx.sql<{ available: string; closed: boolean }>(
        `SELECT b.available::text, w.closed_at IS NOT NULL AS closed
         FROM balance b JOIN wallet w ON w.address_hash = b.wallet_address
         WHERE b.wallet_address = $1`,
        [org.wallet],
      );
      expect(row).toEqual({ available: '9.00000000', closed: true });
    });

    it('sends to any existing wallet, and refuses an unknown one with 422 RECIPIENT_NOT_FOUND', async () => {
      const unknown = await transact(alice, transfer(alice.wallet, `0x${'b'.repeat(40)}`, 1));
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0]).toMatchObject({
        code: 'RECIPIENT_NOT_FOUND',
        source: { pointer: '/transaction/to_wallet' },
      });
    });

    it('refuses different wallets with different assets (422) and the same wallet and asset (422)', async () => {
      const cross = await transact(alice, {
        ...transfer(alice.wallet, bob.wallet, 1),
        to_asset: 'USD',
      });
      expect(cross.status).toBe(422);
      expect(cross.body.errors[0].code).toBe('CROSS_ASSET_TRANSFER_NOT_SUPPORTED');
      const same = await transact(alice, transfer(alice.wallet, alice.wallet, 1));
      expect(same.status).toBe(422);
      expect(same.body.errors[0].code).toBe('NOTHING_TO_MOVE');
    });

    it('refuses an asset that is not offered with 422 UNKNOWN_ASSET', async () => {
      const res = await transact(alice, {
        ...transfer(alice.wallet, bob.wallet, 1),
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
      const res = await ctx.request('POST', '/wallets/transact', {
        body: { transaction: transfer(alice.wallet, bob.wallet, 1) },
      });
      expect(res.status).toBe(401);
    });
  });

  describe('POST /wallets/transact: conversions', () => {
    it('converts inside one wallet at the configured rate, through the issuance account', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 10, 'USD');
      const res = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'USD',
        to_asset: 'CREDITS',
        amount: 2.5,
      });
      expect(res.status).toBe(201);
      expect(res.body.transaction).toMatchObject({
        type: 'conversion',
        amount: 2.5,
        to_amount: 250,
        rate: 100,
        balance_after: 7.5,
        to_balance_after: 250,
      });
      const wallet = await ctx.walletOf(user, user.wallet);
      expect(wallet.balances).toEqual({
        CREDITS: { available: 250, held: 0 },
        USD: { available: 7.5, held: 0 },
      });
      const postings = await ctx.sql<{ wallet_address: string; asset: string; amount: string }>(
        `SELECT wallet_address, asset, amount::text FROM posting WHERE entry_id = $1 ORDER BY id`,
        [res.body.transaction.id],
      );
      expect(postings).toEqual([
        { wallet_address: user.wallet, asset: 'USD', amount: '-2.50000000' },
        { wallet_address: `0x${'0'.repeat(40)}`, asset: 'USD', amount: '2.50000000' },
        { wallet_address: `0x${'0'.repeat(40)}`, asset: 'CREDITS', amount: '-250.00000000' },
        { wallet_address: user.wallet, asset: 'CREDITS', amount: '250.00000000' },
      ]);
      const history = await ctx.request('GET', `/wallets/${user.wallet}/transactions`, {
        token: user.token,
      });
      const lines = history.body.data.filter(
        (t: { transaction_id: string }) => t.transaction_id === res.body.transaction.id,
      );
      expect(lines).toHaveLength(2);
      expect(
        lines.every((l: { counterparty_wallet: null }) => l.counterparty_wallet === null),
      ).toBe(true);
    });

    it('truncates the converted amount to 8 decimals and refuses one that rounds to zero', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 1);
      const small = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'CREDITS',
        to_asset: 'USD',
        amount: 0.00000099,
      });
      expect(small.status).toBe(422);
      expect(small.body.errors[0].code).toBe('AMOUNT_TOO_SMALL');
      const ok = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'CREDITS',
        to_asset: 'USD',
        amount: 0.12345678,
      });
      expect(ok.status).toBe(201);
      expect(ok.body.transaction.to_amount).toBe(0.00123456);
    });

    it('refuses a pair without a configured rate with 422 CONVERSION_NOT_SUPPORTED', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 5, 'EUR');
      const res = await transact(user, {
        from_wallet: user.wallet,
        to_wallet: user.wallet,
        from_asset: 'EUR',
        to_asset: 'CREDITS',
        amount: 1,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].code).toBe('CONVERSION_NOT_SUPPORTED');
      expect((await ctx.walletOf(user, user.wallet)).balances.EUR.available).toBe(5);
    });
  });

  describe('validation of movement bodies', () => {
    it.each([
      ['a string', '10'],
      ['null', null],
      ['a boolean', true],
      ['an object', { value: 1 }],
      ['zero', 0],
      ['a negative', -1],
      ['more than 8 decimals', 0.123456789],
      ['more than 1e15', 1000000000000001],
      ['1e16', 1e16],
    ])('refuses an amount that is %s with 400 at /transaction/amount', async (_label, amount) => {
      const res = await transact(alice, transfer(alice.wallet, bob.wallet, amount));
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        code: 'VALIDATION_FAILED',
        source: { pointer: '/transaction/amount' },
      });
    });

    it('accepts 1e15 exactly', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 1e15);
      expect(await balance(user, user.wallet)).toBe(1e15);
    });

    it.each([
      ['no transaction', {}, '/transaction'],
      ['a transaction string', { transaction: 'x' }, '/transaction'],
      [
        'a malformed from_wallet',
        { transaction: { from_wallet: '0x1' } },
        '/transaction/from_wallet',
      ],
      ['no to_wallet', { transaction: {} }, '/transaction/to_wallet'],
      ['a lower-case asset', { transaction: { from_asset: 'credits' } }, '/transaction/from_asset'],
      ['array metadata', { transaction: { metadata: [] } }, '/transaction/metadata'],
      [
        'a long description',
        { transaction: { description: 'x'.repeat(501) } },
        '/transaction/description',
      ],
    ])('refuses %s with 400 at its pointer', async (_label, body, pointer) => {
      const res = await ctx.request('POST', '/wallets/transact', { token: alice.token, body });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ).toContain(pointer);
    });

    it('refuses malformed JSON and a non-object body with 400, never 500', async () => {
      const broken = await ctx.request('POST', '/wallets/transact', {
        token: alice.token,
        raw: '{"transaction": {',
      });
      expect(broken.status).toBe(400);
      const array = await ctx.request('POST', '/wallets/transact', {
        token: alice.token,
        raw: '[1,2]',
      });
      expect(array.status).toBe(400);
      const nan = await ctx.request('POST', '/wallets/transact', {
        token: alice.token,
        raw: `{"transaction":{"from_wallet":"${alice.wallet}","to_wallet":"${bob.wallet}","from_asset":"CREDITS","to_asset":"CREDITS","amount":NaN}}`,
      });
      expect(nan.status).toBe(400);
    });
  });

  describe('Idempotency-Key on transact', () => {
    it('answers a retry with the original movement and moves the money once', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 10);
      const key = randomUUID();
      const body = transfer(user.wallet, bob.wallet, 3);
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
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 10);
      const key = randomUUID();
      await transact(user, transfer(user.wallet, bob.wallet, 3), { 'idempotency-key': key });
      const reused = await transact(user, transfer(user.wallet, bob.wallet, 4), {
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
      const one = await ctx.newUser();
      const two = await ctx.newUser();
      await ctx.credit(one.wallet, 5);
      await ctx.credit(two.wallet, 5);
      const key = 'shared-key-1';
      expect(
        (await transact(one, transfer(one.wallet, bob.wallet, 1), { 'idempotency-key': key }))
          .status,
      ).toBe(201);
      const other = await transact(two, transfer(two.wallet, bob.wallet, 1), {
        'idempotency-key': key,
      });
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect(await balance(two, two.wallet)).toBe(4);
    });

    it('retries a request that failed: a failed attempt is not remembered', async () => {
      const user = await ctx.newUser();
      const key = randomUUID();
      const body = transfer(user.wallet, bob.wallet, 2);
      expect((await transact(user, body, { 'idempotency-key': key })).status).toBe(422);
      await ctx.credit(user.wallet, 2);
      expect((await transact(user, body, { 'idempotency-key': key })).status).toBe(201);
      expect(await balance(user, user.wallet)).toBe(0);
    });

    it('refuses a malformed key with 400', async () => {
      const res = await transact(alice, transfer(alice.wallet, bob.wallet, 1), {
        'idempotency-key': 'has spaces in it',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ header: 'Idempotency-Key' });
    });
  });

  describe('POST /wallets/{addressHash}/debits', () => {
    it('debits the owner’s wallet to the issuance account and answers {debit}', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 10);
      const res = await ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 4, description: 'usage', reference_id: 'inv-1' } },
      });
      expect(res.status).toBe(201);
      expect(res.body.debit).toMatchObject({
        type: 'debit',
        from_wallet: user.wallet,
        to_wallet: null,
        amount: 4,
        reference_id: 'inv-1',
        balance_after: 6,
      });
      const again = await ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 4, description: 'usage', reference_id: 'inv-1' } },
      });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(res.body);
      expect(await balance(user, user.wallet)).toBe(6);
      const conflict = await ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 5, description: 'usage', reference_id: 'inv-1' } },
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body.errors[0].source).toEqual({ pointer: '/debit/reference_id' });
      const history = await ctx.request('GET', `/wallets/${user.wallet}/transactions`, {
        token: user.token,
      });
      expect(history.body.data[0]).toMatchObject({
        type: 'debit',
        direction: 'out',
        reference_id: 'inv-1',
        counterparty_wallet: null,
      });
    });

    it('refuses a debit above the balance with 422 and moves nothing', async () => {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 1);
      const res = await ctx.request('POST', `/wallets/${user.wallet}/debits`, {
        token: user.token,
        body: { debit: { amount: 2, description: 'too much' } },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].code).toBe('INSUFFICIENT_FUNDS');
      expect(await balance(user, user.wallet)).toBe(1);
    });

    it('answers 404 for a foreign wallet and 403 for an organization MEMBER', async () => {
      const foreign = await ctx.request('POST', `/wallets/${alice.wallet}/debits`, {
        token: bob.token,
        body: { debit: { amount: 1, description: 'x' } },
      });
      expect(foreign.status).toBe(404);
      const org = await ctx.newOrganization(alice, 'Debits');
      await ctx.credit(org.wallet, 3);
      const member = await ctx.newUser();
      await ctx.setOrganizationRole(org.id, member, 'MEMBER');
      const byMember = await ctx.request('POST', `/wallets/${org.wallet}/debits`, {
        token: member.token,
        body: { debit: { amount: 1, description: 'x' } },
      });
      expect(byMember.status).toBe(403);
      expect(await balance(alice, org.wallet)).toBe(3);
    });

    it.each([
      ['no debit', {}, '/debit'],
      ['no description', { debit: { amount: 1 } }, '/debit/description'],
      ['a string amount', { debit: { amount: '1', description: 'x' } }, '/debit/amount'],
      [
        'an empty reference_id',
        { debit: { amount: 1, description: 'x', reference_id: '' } },
        '/debit/reference_id',
      ],
      [
        'a long reference_id',
        { debit: { amount: 1, description: 'x', reference_id: 'r'.repeat(256) } },
        '/debit/reference_id',
      ],
    ])('refuses %s with 400', async (_label, body, pointer) => {
      const res = await ctx.request('POST', `/wallets/${alice.wallet}/debits`, {
        token: alice.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    });
  });

  describe('POST /wallets/{addressHash}/credits', () => {
    const credit = (headers: Record<string, string>, body: unknown, address = bob.wallet) =>
      ctx.request('POST', `/wallets/${address}/credits`, { token: alice.token, headers, body });

    it('refuses without Admin-Access, or with a wrong one, with 403 and moves nothing', async () => {
      const before = await entries();
      const missing = await credit({}, { credit: { amount: 1, description: 'x' } });
      expect(missing.status).toBe(403);
      expect(missing.body.errors[0].code).toBe('ADMIN_ACCESS_REQUIRED');
      const wrong = await credit(
        { 'admin-access': 'nope' },
        { credit: { amount: 1, description: 'x' } },
      );
      expect(wrong.status).toBe(403);
      expect(await entries()).toBe(before);
    });

    it('credits any wallet with Admin-Access, idempotently per reference_id', async () => {
      const user = await ctx.newUser();
      const admin = { 'admin-access': ctx.adminAccessToken };
      const body = { credit: { amount: 7, description: 'grant', reference_id: 'grant-1' } };
      const first = await credit(admin, body, user.wallet);
      const second = await credit(admin, body, user.wallet);
      expect(first.status).toBe(201);
      expect(first.body.credit).toMatchObject({
        type: 'credit',
        from_wallet: null,
        to_wallet: user.wallet,
        amount: 7,
        balance_after: 7,
      });
      expect(second.body).toEqual(first.body);
      expect(await balance(user, user.wallet)).toBe(7);
    });

    it('answers 404 for an unknown wallet and 400 for a bad body, with Admin-Access', async () => {
      const admin = { 'admin-access': ctx.adminAccessToken };
      expect(
        (await credit(admin, { credit: { amount: 1, description: 'x' } }, `0x${'c'.repeat(40)}`))
          .status,
      ).toBe(404);
      const bad = await credit(admin, { credit: { amount: -1, description: 'x' } });
      expect(bad.status).toBe(400);
    });
  });

  describe('GET /wallets/{addressHash}/transactions', () => {
    it('pages newest first with page, per_page and totals', async () => {
      const user = await ctx.newUser();
      for (let i = 1; i <= 25; i++) await ctx.credit(user.wallet, i);
      const page1 = await ctx.request('GET', `/wallets/${user.wallet}/transactions`, {
        token: user.token,
      });
      expect(page1.body.meta).toEqual({ page: 1, per_page: 20, total_count: 25, total_pages: 2 });
      expect(page1.body.data).toHaveLength(20);
      expect(page1.body.data[0].amount).toBe(25);
      expect(page1.body.data[0].balance_after).toBe(325);
      const page2 = await ctx.request(
        'GET',
        `/wallets/${user.wallet}/transactions?page=2&per_page=20`,
        {
          token: user.token,
        },
      );
      expect(page2.body.data.map((t: { amount: number }) => t.amount)).toEqual([5, 4, 3, 2, 1]);
      const small = await ctx.request(
        'GET',
        `/wallets/${user.wallet}/transactions?per_page=100&page=1`,
        {
          token: user.token,
        },
      );
      expect(small.body.data).toHaveLength(25);
    });

    it.each(['per_page=101', 'per_page=0', 'page=0', 'page=abc', 'per_page=1.5'])(
      'refuses %s with 400',
      async (query) => {
        const res = await ctx.request('GET', `/wallets/${alice.wallet}/transactions?${query}`, {
          token: alice.token,
        });
        expect(res.status).toBe(400);
      },
    );

    it('answers 404 for a foreign wallet', async () => {
      const res = await ctx.request('GET', `/wallets/${alice.wallet}/transactions`, {
        token: bob.token,
      });
      expect(res.status).toBe(404);
    });
  });

  it('leaves the ledger balanced after everything above', async () => {
    const report = await ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

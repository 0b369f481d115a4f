import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

/**
 * `wallet_move_batch`, the group commit (docs/wallet.md § Group commit), called directly on the
 * real database: plain transfers are applied set-wise into any number of destinations, every
 * other item through `wallet_move`; each item keeps its own outcome, and balances, results and
 * every posting's `balance_after` read as if the items had run one by one.
 */
describe('wallet_move_batch', () => {
  let ctx: WalletTestContext;

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
  });
  afterAll(() => ctx.close());

  interface Row {
    r_index: number;
    r_entry_id: string | null;
    r_replayed: boolean | null;
    r_from_balance: string | null;
    r_to_balance: string | null;
    r_sqlstate: string | null;
  }
  const item = (from: string, to: string, amount: string, extra: Record<string, unknown> = {}) => ({
    type: 'transfer',
    from,
    from_asset: 'CREDITS',
    amount,
    to,
    to_asset: 'CREDITS',
    description: `${amount} from ${from.slice(-4)}`,
    metadata: { n: amount },
    reference_id: null,
    initiated_by: 'test',
    idempotency_scope: null,
    idempotency_key: null,
    fingerprint: null,
    source_held: false,
    transfer_request_id: null,
    ...extra,
  });
  const batch = async (items: unknown[]) =>
    (
      await ctx.sql<Row>(`SELECT * FROM wallet_move_batch($1::jsonb)`, [JSON.stringify(items)])
    ).sort((a, b) => a.r_index - b.r_index);
  const total = async (wallet: string) =>
    Number(
      (
        await ctx.sql<{ t: string }>(
          `SELECT coalesce(sum(available + held), 0)::text AS t FROM balance WHERE wallet_address = $1`,
          [wallet],
        )
      )[0].t,
    );
  /** A wallet's postings in id order: [amount, balance_after]. */
  const postingsOf = async (wallet: string) =>
    (
      await ctx.sql<{ amount: string; balance_after: string }>(
        `SELECT amount::text, balance_after::text FROM posting WHERE wallet_address = $1 ORDER BY id`,
        [wallet],
      )
    ).map((p) => [p.amount, p.balance_after]);
  const funded = async (amount: number): Promise<TestUser> => {
    const user = await ctx.newUser();
    await ctx.credit(user.wallet, amount);
    return user;
  };

  it('gives every item its own outcome and the balances of a one-by-one run', async () => {
    const [a, b, c, closed] = await Promise.all([funded(10), funded(1), funded(10), funded(10)]);
    const hot = await funded(100);
    await ctx.sql(`UPDATE wallet SET closed_at = now() WHERE address_hash = $1`, [closed.wallet]);
    const rows = await batch([
      item(a.wallet, hot.wallet, '3'),
      item(b.wallet, hot.wallet, '5'), // b holds 1
      item(a.wallet, hot.wallet, '0.000000001'), // 9 decimals
      item(c.wallet, hot.wallet, '4', {
        idempotency_scope: 'transact:test',
        idempotency_key: 'batch-key-1',
        fingerprint: 'f1',
      }), // not a plain transfer: through wallet_move
      item(a.wallet, hot.wallet, '2'),
      item(closed.wallet, hot.wallet, '1'),
      item(b.wallet, hot.wallet, '1'),
    ]);
    expect(rows.map((r) => r.r_sqlstate)).toEqual([
      null,
      'WL001',
      'WL007',
      null,
      null,
      'WL009',
      null,
    ]);
    // The keyed item is not a plain transfer and runs first (hot 100 → 104), then the plain
    // transfers in item order: a 3 (107), a 2 (109), b 1 (110).
    expect(rows.map((r) => [r.r_from_balance, r.r_to_balance])).toEqual([
      ['7.00000000', '107.00000000'],
      [null, null],
      [null, null],
      ['6.00000000', '104.00000000'],
      ['5.00000000', '109.00000000'],
      [null, null],
      ['0.00000000', '110.00000000'],
    ]);
    expect(await total(hot.wallet)).toBe(110);
    expect(await total(a.wallet)).toBe(5);
    expect(await total(b.wallet)).toBe(0);
    expect(await total(c.wallet)).toBe(6);
    expect(await total(closed.wallet)).toBe(10);
    const entries = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entry WHERE to_wallet = $1 AND type = 'transfer'`,
      [hot.wallet],
    );
    expect(entries[0].n).toBe(4);
    expect(await postingsOf(hot.wallet)).toEqual([
      ['100.00000000', '100.00000000'],
      ['4.00000000', '104.00000000'],
      ['3.00000000', '107.00000000'],
      ['2.00000000', '109.00000000'],
      ['1.00000000', '110.00000000'],
    ]);
    const entry = await ctx.sql<{ description: string; metadata: unknown; initiated_by: string }>(
      `SELECT description, metadata, initiated_by FROM journal_entry WHERE id = $1`,
      [rows[0].r_entry_id],
    );
    expect(entry[0]).toEqual({
      description: `3 from ${a.wallet.slice(-4)}`,
      metadata: { n: '3' },
      initiated_by: 'test',
    });
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('refuses every plain item into an unknown or closed recipient and moves nothing', async () => {
    const a = await funded(10);
    const unknown = `0x${'f'.repeat(40)}`;
    const rows = await batch([item(a.wallet, unknown, '1'), item(a.wallet, unknown, '2')]);
    expect(rows.map((r) => r.r_sqlstate)).toEqual(['WL003', 'WL003']);
    const closed = await funded(1);
    await ctx.sql(`UPDATE wallet SET closed_at = now() WHERE address_hash = $1`, [closed.wallet]);
    const again = await batch([item(a.wallet, closed.wallet, '1')]);
    expect(again.map((r) => r.r_sqlstate)).toEqual(['WL004']);
    expect(await total(a.wallet)).toBe(10);
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('credits every destination once, in item order, also balances that do not exist yet', async () => {
    const [a, b] = await Promise.all([funded(10), funded(10)]);
    const [x, y] = await Promise.all([ctx.newUser(), ctx.newUser()]); // no balance rows yet
    const rows = await batch([
      item(a.wallet, x.wallet, '1'),
      item(b.wallet, y.wallet, '2'),
      item(a.wallet, y.wallet, '4'),
      item(b.wallet, x.wallet, '3'),
      item(a.wallet, x.wallet, '6'), // a holds 5 by now
    ]);
    expect(rows.map((r) => [r.r_sqlstate, r.r_from_balance, r.r_to_balance])).toEqual([
      [null, '9.00000000', '1.00000000'],
      [null, '8.00000000', '2.00000000'],
      [null, '5.00000000', '6.00000000'],
      [null, '5.00000000', '4.00000000'],
      ['WL001', null, null],
    ]);
    expect(await postingsOf(x.wallet)).toEqual([
      ['1.00000000', '1.00000000'],
      ['3.00000000', '4.00000000'],
    ]);
    expect(await postingsOf(y.wallet)).toEqual([
      ['2.00000000', '2.00000000'],
      ['4.00000000', '6.00000000'],
    ]);
    expect(await postingsOf(a.wallet)).toEqual([
      ['10.00000000', '10.00000000'],
      ['-1.00000000', '9.00000000'],
      ['-4.00000000', '5.00000000'],
    ]);
    const entries = await ctx.sql<{ to_wallet: string; amount: string }>(
      `SELECT to_wallet, amount::text FROM journal_entry WHERE id = ANY($1::uuid[])`,
      [rows.slice(0, 4).map((r) => r.r_entry_id)],
    );
    expect(entries).toHaveLength(4);
    expect(
      entries
        .filter((e) => e.to_wallet === y.wallet)
        .map((e) => e.amount)
        .sort(),
    ).toEqual(['2.00000000', '4.00000000']);
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('runs the items of a wallet that both pays and receives one by one, in item order', async () => {
    const a = await funded(10);
    const [b, c] = await Promise.all([ctx.newUser(), ctx.newUser()]);
    // b holds nothing until a's transfer: set-wise (all debits before the credits) it would be
    // refused; one by one it is not.
    const rows = await batch([
      item(a.wallet, b.wallet, '5'),
      item(b.wallet, c.wallet, '5'),
      item(a.wallet, c.wallet, '1'), // a plain transfer: runs after the two others
    ]);
    expect(rows.map((r) => [r.r_sqlstate, r.r_from_balance, r.r_to_balance])).toEqual([
      [null, '5.00000000', '5.00000000'],
      [null, '0.00000000', '5.00000000'],
      [null, '4.00000000', '6.00000000'],
    ]);
    expect(await postingsOf(b.wallet)).toEqual([
      ['5.00000000', '5.00000000'],
      ['-5.00000000', '0.00000000'],
    ]);
    expect(await postingsOf(c.wallet)).toEqual([
      ['5.00000000', '5.00000000'],
      ['1.00000000', '6.00000000'],
    ]);
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('moves the other items first, then the plain transfers, so postings follow the balances', async () => {
    const a = await funded(10);
    const x = await ctx.newUser();
    const rows = await batch([
      item(a.wallet, x.wallet, '1'),
      item(a.wallet, x.wallet, '2', {
        idempotency_scope: 'transact:test',
        idempotency_key: 'batch-order-1',
        fingerprint: 'f2',
      }), // through wallet_move, first
      item(a.wallet, x.wallet, '3'),
    ]);
    expect(rows.map((r) => [r.r_sqlstate, r.r_from_balance, r.r_to_balance])).toEqual([
      [null, '7.00000000', '3.00000000'],
      [null, '8.00000000', '2.00000000'],
      [null, '4.00000000', '6.00000000'],
    ]);
    expect(await postingsOf(a.wallet)).toEqual([
      ['10.00000000', '10.00000000'],
      ['-2.00000000', '8.00000000'],
      ['-1.00000000', '7.00000000'],
      ['-3.00000000', '4.00000000'],
    ]);
    expect(await total(x.wallet)).toBe(6);
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('leaves every item to wallet_move when none is a plain transfer', async () => {
    const a = await funded(10);
    const hot = await ctx.newUser();
    const keyed = (key: string, amount: string) =>
      item(a.wallet, hot.wallet, amount, {
        idempotency_scope: 'transact:test',
        idempotency_key: key,
        fingerprint: `f-${amount}`,
      });
    const rows = await batch([keyed('k1', '1'), keyed('k1', '1'), keyed('k1', '2')]);
    expect(rows.map((r) => [r.r_sqlstate, r.r_replayed])).toEqual([
      [null, false],
      [null, true],
      ['WL002', null],
    ]);
    expect(rows[1].r_entry_id).toBe(rows[0].r_entry_id);
    expect(await total(hot.wallet)).toBe(1);
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('the ledger audit notices a balance_after that breaks the chain', async () => {
    const a = await funded(5);
    const [posting] = await ctx.sql<{ id: string }>(
      `SELECT id::text FROM posting WHERE wallet_address = $1`,
      [a.wallet],
    );
    await ctx.sql(`ALTER TABLE posting DISABLE TRIGGER posting_append_only`);
    try {
      await ctx.sql(`UPDATE posting SET balance_after = 4 WHERE id = $1`, [posting.id]);
      const problems = (await ctx.audit()).problems;
      expect(problems).toEqual([
        `posting ${posting.id} of ${a.wallet} CREDITS says balance_after 4.00000000, expected 5.00000000`,
      ]);
    } finally {
      await ctx.sql(`UPDATE posting SET balance_after = 5 WHERE id = $1`, [posting.id]);
      await ctx.sql(`ALTER TABLE posting ENABLE TRIGGER posting_append_only`);
    }
    expect((await ctx.audit()).problems).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { histogramTotals } from '@wp/testing';
import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

/**
 * The ledger's properties under concurrency, against the real database (docs/wallet.md § Tests):
 * (1) parallel random transfers keep every sum and balance right, (2) parallel debits never
 * overdraw, (3) parallel retries of one reference move money once; plus opposite transfers
 * (no deadlock) and a hot destination wallet.
 */
describe('ledger properties under concurrency', () => {
  let ctx: WalletTestContext;
  let users: TestUser[];

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
    users = [];
    for (let i = 0; i < 20; i++) users.push(await ctx.newUser());
  });
  afterAll(() => ctx.close());

  /** Amounts in integer cents, so the test's own arithmetic is exact. */
  const cents = (n: number) => Math.round(n * 100);
  const balances = async () => {
    const rows = await ctx.sql<{ wallet_address: string; total: string }>(
      `SELECT wallet_address, (available + held)::text AS total FROM balance WHERE asset = 'CREDITS'`,
    );
    return new Map(rows.map((r) => [r.wallet_address, cents(Number(r.total))]));
  };
  /** `wallet_ledger_batch_size` from the service's /metrics: ledger calls and movements. */
  const batchSizeMetric = () => histogramTotals(ctx.metricsUrl, 'wallet_ledger_batch_size');
  const transact = (user: TestUser, transaction: Record<string, unknown>, key?: string) =>
    ctx.request('POST', '/wallets/transact', {
      token: user.token,
      body: { transaction },
      headers: key ? { 'idempotency-key': key } : {},
    });

  it('(1) 200 parallel random transfers among 20 wallets: sums unchanged, every balance ≥ 0 and equal to its postings', async () => {
    const funding = users.map((_, i) => 50 + i * 5);
    for (const [i, user] of users.entries()) await ctx.credit(user.wallet, funding[i]);
    const before = await balances();
    const totalBefore = [...before.values()].reduce((a, b) => a + b, 0);
    const batchesBefore = await batchSizeMetric();

    const random = (n: number) => Math.floor(Math.random() * n);
    const plan = Array.from({ length: 200 }, () => {
      const from = random(20);
      let to = random(19);
      if (to >= from) to++;
      return { from, to, amount: (1 + random(4000)) / 100 };
    });
    const answers = await Promise.all(
      plan.map((p) =>
        transact(users[p.from], {
          from_wallet: users[p.from].wallet,
          to_wallet: users[p.to].wallet,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: p.amount,
        }),
      ),
    );

    const outcomes = answers.map((a) => (a.status === 201 ? 'ok' : a.body.errors?.[0]?.code));
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'INSUFFICIENT_FUNDS')).toEqual([]);
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThan(0);
    // With every ledger call busy, transfers into different wallets were committed together
    // (group commit, docs/wallet.md): fewer ledger calls than movements.
    const batches = await batchSizeMetric();
    expect(batches.sum - batchesBefore.sum).toBe(200);
    expect(batches.count - batchesBefore.count).toBeLessThan(200);

    // What the clients were told adds up to what the ledger holds.
    const expected = new Map(before);
    plan.forEach((p, i) => {
      if (answers[i].status !== 201) return;
      const a = cents(p.amount);
      expected.set(users[p.from].wallet, expected.get(users[p.from].wallet)! - a);
      expected.set(users[p.to].wallet, expected.get(users[p.to].wallet)! + a);
    });
    const after = await balances();
    expect(after).toEqual(expected);
    expect([...after.values()].reduce((a, b) => a + b, 0)).toBe(totalBefore);
    expect([...after.values()].every((b) => b >= 0)).toBe(true);

    const transfers = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entry WHERE type = 'transfer'`,
    );
    expect(transfers[0].n).toBe(outcomes.filter((o) => o === 'ok').length);
    const report = await ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.assets.find((a) => a.asset === 'CREDITS')).toMatchObject({
      issuance: (-totalBefore / 100).toFixed(8),
    });
  });

  it('(2) 50 parallel debits of 1 on a balance of 20: exactly 20 succeed, the balance ends at 0', async () => {
    const user = await ctx.newUser();
    await ctx.credit(user.wallet, 20);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ctx.request('POST', `/wallets/${user.wallet}/debits`, {
          token: user.token,
          body: { debit: { amount: 1, description: `debit ${i}` } },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 422)).toHaveLength(30);
    expect((await ctx.walletOf(user, user.wallet)).balance).toBe(0);
    expect((await ctx.audit()).ok).toBe(true);
  });

  it('(3) the same reference_id sent 10 times in parallel moves the money once, and all answers agree', async () => {
    const user = await ctx.newUser();
    await ctx.credit(user.wallet, 10);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.request('POST', `/wallets/${user.wallet}/debits`, {
          token: user.token,
          body: { debit: { amount: 3, description: 'once', reference_id: 'order-42' } },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.debit.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect((await ctx.walletOf(user, user.wallet)).balance).toBe(7);
    const entries = await ctx.sql(
      `SELECT 1 FROM journal_entry WHERE reference_id = 'order-42' AND from_wallet = $1`,
      [user.wallet],
    );
    expect(entries).toHaveLength(1);
  });

  it('(3) the same Idempotency-Key on 10 parallel transfers moves the money once', async () => {
    const [from, to] = [await ctx.newUser(), await ctx.newUser()];
    await ctx.credit(from.wallet, 10);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        transact(
          from,
          {
            from_wallet: from.wallet,
            to_wallet: to.wallet,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: 4,
          },
          key,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.transaction.id)).size).toBe(1);
    expect((await ctx.walletOf(to, to.wallet)).balance).toBe(4);
  });

  it('(3) the same credit reference 10 times in parallel credits once', async () => {
    const user = await ctx.newUser();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.request('POST', `/wallets/${user.wallet}/credits`, {
          token: user.token,
          headers: { 'admin-access': ctx.adminAccessToken },
          body: { credit: { amount: 5, description: 'grant', reference_id: 'grant-7' } },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect((await ctx.walletOf(user, user.wallet)).balance).toBe(5);
  });

  it('never deadlocks: 100 parallel transfers between two wallets in both directions all succeed', async () => {
    const [a, b] = [await ctx.newUser(), await ctx.newUser()];
    await ctx.credit(a.wallet, 1000);
    await ctx.credit(b.wallet, 1000);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const [from, to] = i % 2 ? [a, b] : [b, a];
        return transact(from, {
          from_wallet: from.wallet,
          to_wallet: to.wallet,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 1 + (i % 7),
        });
      }),
    );
    expect(answers.filter((r) => r.status !== 201).map((r) => r.body)).toEqual([]);
    const total =
      (await ctx.walletOf(a, a.wallet)).balance + (await ctx.walletOf(b, b.wallet)).balance;
    expect(total).toBe(2000);
  });

  it('takes 100 parallel transfers into one hot wallet without losing any', async () => {
    const hot = await ctx.newUser();
    const senders = users.slice(0, 10);
    for (const s of senders) await ctx.credit(s.wallet, 10);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const from = senders[i % senders.length];
        return transact(from, {
          from_wallet: from.wallet,
          to_wallet: hot.wallet,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 0.5,
        });
      }),
    );
    expect(answers.filter((r) => r.status !== 201)).toHaveLength(0);
    expect((await ctx.walletOf(hot, hot.wallet)).balance).toBe(50);
    const report = await ctx.audit();
    expect(report.problems).toEqual([]);
  });

  it('commits queued transfers into a hot wallet together, each with its own outcome (group commit)', async () => {
    const hot = await ctx.newUser();
    const senders = Array.from({ length: 20 }, () => ctx.newUser());
    const funded = await Promise.all(senders);
    for (const s of funded) await ctx.credit(s.wallet, 2);
    const batchesBefore = await batchSizeMetric();
    // Three transfers of 1 from each sender holding 2: exactly two of each sender's succeed.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const from = funded[i % funded.length];
        return transact(from, {
          from_wallet: from.wallet,
          to_wallet: hot.wallet,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 1,
        });
      }),
    );
    const codes = answers.map((a) => (a.status === 201 ? 'ok' : a.body.errors?.[0]?.code));
    expect(codes.filter((c) => c !== 'ok' && c !== 'INSUFFICIENT_FUNDS')).toEqual([]);
    expect(codes.filter((c) => c === 'ok')).toHaveLength(40);
    for (const s of funded) expect((await ctx.walletOf(s, s.wallet)).balance).toBe(0);
    expect((await ctx.walletOf(hot, hot.wallet)).balance).toBe(40);
    const entries = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entry WHERE to_wallet = $1`,
      [hot.wallet],
    );
    expect(entries[0].n).toBe(40);
    const batchesAfter = await batchSizeMetric();
    // More movements than ledger calls: some of them were committed together.
    expect(batchesAfter.sum - batchesBefore.sum).toBe(60);
    expect(batchesAfter.count - batchesBefore.count).toBeLessThan(60);
    expect((await ctx.audit()).problems).toEqual([]);
  });

  it('a reused Idempotency-Key inside one batch answers the original, moving nothing twice', async () => {
    const hot = await ctx.newUser();
    const from = await ctx.newUser();
    await ctx.credit(from.wallet, 100);
    const body = {
      from_wallet: from.wallet,
      to_wallet: hot.wallet,
      from_asset: 'CREDITS',
      to_asset: 'CREDITS',
      amount: 7,
    };
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => transact(from, body, 'same-key-in-batch')),
      transact(from, { ...body, amount: 8 }, 'same-key-in-batch'),
    ]);
    const ok = answers.filter((a) => a.status === 201);
    expect(new Set(ok.map((a) => a.body.transaction.id)).size).toBe(1);
    expect(answers.filter((a) => a.status === 409).length).toBeLessThanOrEqual(1);
    expect((await ctx.walletOf(hot, hot.wallet)).balance).toBe(7);
    expect((await ctx.walletOf(from, from.wallet)).balance).toBe(93);
  });

  it('keeps the issuance account the exact counterpart of parallel credits, debits and conversions', async () => {
    const user = await ctx.newUser();
    await ctx.credit(user.wallet, 100, 'USD');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? transact(user, {
              from_wallet: user.wallet,
              to_wallet: user.wallet,
              from_asset: 'USD',
              to_asset: 'CREDITS',
              amount: 1.25,
            })
          : ctx.request('POST', `/wallets/${user.wallet}/debits`, {
              token: user.token,
              body: { debit: { amount: 0.5, description: 'fee', asset: 'USD' } },
            }),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const wallet = await ctx.walletOf(user, user.wallet);
    expect(wallet.balances).toEqual({
      CREDITS: { available: 2500, held: 0 },
      USD: { available: 65, held: 0 },
    });
    const report = await ctx.audit();
    expect(report.problems).toEqual([]);
    expect(report.assets.every((a) => Number(a.sum) === 0)).toBe(true);
  });
});

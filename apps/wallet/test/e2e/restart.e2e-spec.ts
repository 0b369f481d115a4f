import { randomUUID } from 'node:crypto';
import { WalletProcess } from '../support/wallet-process.js';
import { WalletTestContext, type TestUser } from '../support/wallet-test-context.js';

interface Sent {
  key: string;
  from: number;
  to: number;
  /** Cents. */
  amount: number;
  /** 'ok' (201), 'refused' (422), or 'unknown' (the connection died: did it commit?). */
  outcome: 'ok' | 'refused' | 'unknown';
}

/**
 * docs/wallet.md § Tests (5): killing the wallet service (SIGKILL, no graceful shutdown) while
 * transfers are in flight loses no committed movement and leaves none half-applied. Clients
 * retry what they never heard back about with the same Idempotency-Key; every movement then
 * exists exactly once, and the ledger's invariants hold.
 */
describe('wallet service killed during load', () => {
  let ctx: WalletTestContext;
  let wallet: WalletProcess | undefined;
  const users: TestUser[] = [];

  beforeAll(async () => {
    ctx = await WalletTestContext.start();
    for (let i = 0; i < 8; i++) {
      const user = await ctx.newUser();
      await ctx.credit(user.wallet, 100);
      users.push(user);
    }
    await ctx.stopApp();
    wallet = await WalletProcess.start(ctx.env.env);
    ctx.useBaseUrl(wallet.url);
  }, 120_000);
  afterAll(async () => {
    await wallet?.stop();
    await ctx.close();
  });

  const send = async (s: Sent): Promise<Sent['outcome']> => {
    try {
      const res = await ctx.request('POST', '/wallets/transact', {
        token: users[s.from].token,
        headers: { 'idempotency-key': s.key },
        body: {
          transaction: {
            from_wallet: users[s.from].wallet,
            to_wallet: users[s.to].wallet,
            from_asset: 'CREDITS',
            to_asset: 'CREDITS',
            amount: s.amount / 100,
          },
        },
      });
      if (res.status === 201) return 'ok';
      if (res.status === 422 && res.body.errors[0].code === 'INSUFFICIENT_FUNDS') return 'refused';
      throw new Error(`unexpected answer ${res.status} ${JSON.stringify(res.body)}`);
    } catch (error) {
      if ((error as Error).message.startsWith('unexpected')) throw error;
      return 'unknown'; // connection refused / reset: the process is down
    }
  };

  it('loses no committed transfer and applies none twice or by half', async () => {
    const sent: Sent[] = [];
    let stop = false;
    let back: Promise<void> = Promise.resolve();
    const worker = async () => {
      while (!stop) {
        const from = Math.floor(Math.random() * users.length);
        const to = (from + 1 + Math.floor(Math.random() * (users.length - 1))) % users.length;
        const s: Sent = {
          key: randomUUID(),
          from,
          to,
          amount: 1 + Math.floor(Math.random() * 500),
          outcome: 'unknown',
        };
        sent.push(s);
        s.outcome = await send(s);
        if (s.outcome === 'unknown') await back; // a client backs off while the service is down
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    await new Promise((r) => setTimeout(r, 1500));
    const restarted = (async () => {
      await wallet!.kill();
      await wallet!.spawn();
    })();
    back = restarted;
    await restarted;
    await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    await Promise.all(workers);

    const cut = sent.filter((s) => s.outcome === 'unknown');
    const answeredBeforeKill = sent.filter((s) => s.outcome === 'ok').length;
    expect(answeredBeforeKill).toBeGreaterThan(20);
    expect(cut.length).toBeGreaterThan(0);
    for (const s of cut) s.outcome = await send(s); // the retry, same key and body
    expect(sent.filter((s) => s.outcome === 'unknown')).toEqual([]);

    // Every answered 201 is in the ledger exactly once; no 422 left a trace.
    const rows = await ctx.sql<{ idempotency_key: string; n: number }>(
      `SELECT idempotency_key, count(*)::int AS n FROM journal_entry
       WHERE idempotency_key IS NOT NULL GROUP BY idempotency_key`,
    );
    const inLedger = new Map(rows.map((r) => [r.idempotency_key, r.n]));
    for (const s of sent)
      expect([s.key, inLedger.get(s.key) ?? 0]).toEqual([s.key, s.outcome === 'ok' ? 1 : 0]);
    expect(inLedger.size).toBe(sent.filter((s) => s.outcome === 'ok').length);

    // Balances are what the clients were told.
    const expected = users.map(() => 10_000);
    for (const s of sent.filter((x) => x.outcome === 'ok')) {
      expected[s.from] -= s.amount;
      expected[s.to] += s.amount;
    }
    for (const [i, user] of users.entries()) {
      const record = await ctx.walletOf(user, user.wallet);
      expect(Math.round(record.balance * 100)).toBe(expected[i]);
    }
    const report = await ctx.audit();
    expect(report.problems).toEqual([]);
  }, 120_000);
});

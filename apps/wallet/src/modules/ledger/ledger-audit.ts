/** Runs one SQL query and returns its rows (a pg client, a TypeORM DataSource, …). */
export type SqlQuery = (sql: string) => Promise<Record<string, unknown>[]>;

export interface LedgerAuditReport {
  /** True when every invariant holds. */
  ok: boolean;
  /** One line per violation (empty when ok). */
  problems: string[];
  /** Per asset: sum of every posting (must be 0) and what the issuance account holds. */
  assets: { asset: string; sum: string; issuance: string }[];
  counts: { entries: number; postings: number; balances: number };
}

/**
 * Checks the ledger invariants of docs/wallet.md § Ledger, read-only, in one consistent
 * snapshot (run it inside a REPEATABLE READ transaction, or on a quiet ledger):
 *
 * 1. the postings of every asset sum to zero (the issuance account is the counterpart);
 * 2. the postings of every journal entry sum to zero per asset, and every entry has postings;
 * 3. no available or held balance is negative;
 * 4. every balance (available + held) equals the sum of its wallet's postings in that asset;
 * 5. every held balance equals the sum of the transfer requests reserved against it;
 * 6. every posting's `balance_after` equals the wallet's balance after its previous posting in
 *    that asset (or 0) plus its amount: the history reads as if the movements had run one by
 *    one, also where they were committed together (wallet_move_batch).
 *
 * Used by the tests and by the benchmark after every run.
 */
export async function auditLedger(query: SqlQuery): Promise<LedgerAuditReport> {
  const problems: string[] = [];
  const issuance = '0x0000000000000000000000000000000000000000';

  const assets = (await query(
    `SELECT asset, sum(amount)::text AS sum,
            coalesce(sum(amount) FILTER (WHERE wallet_address = '${issuance}'), 0)::text AS issuance
     FROM posting GROUP BY asset ORDER BY asset`,
  )) as { asset: string; sum: string; issuance: string }[];
  for (const a of assets) {
    if (Number(a.sum) !== 0) problems.push(`postings of ${a.asset} sum to ${a.sum}, not 0`);
  }

  const unbalanced = await query(
    `SELECT entry_id, asset, sum(amount)::text AS sum FROM posting
     GROUP BY entry_id, asset HAVING sum(amount) <> 0 LIMIT 20`,
  );
  for (const u of unbalanced) {
    problems.push(`entry ${String(u.entry_id)} ${String(u.asset)} sums to ${String(u.sum)}`);
  }
  const empty = await query(
    `SELECT j.id FROM journal_entry j
     WHERE NOT EXISTS (SELECT 1 FROM posting p WHERE p.entry_id = j.id) LIMIT 20`,
  );
  for (const e of empty) problems.push(`entry ${String(e.id)} has no postings`);

  const negative = await query(
    `SELECT wallet_address, asset, available::text, held::text FROM balance
     WHERE available < 0 OR held < 0 LIMIT 20`,
  );
  for (const n of negative) {
    problems.push(
      `balance ${String(n.wallet_address)} ${String(n.asset)} is negative (available ${String(n.available)}, held ${String(n.held)})`,
    );
  }

  const mismatched = await query(
    `WITH sums AS (
       SELECT wallet_address, asset, sum(amount) AS total FROM posting
       WHERE wallet_address <> '${issuance}' GROUP BY wallet_address, asset
     )
     SELECT coalesce(b.wallet_address, s.wallet_address) AS wallet_address,
            coalesce(b.asset, s.asset) AS asset,
            (coalesce(b.available, 0) + coalesce(b.held, 0))::text AS balance,
            coalesce(s.total, 0)::text AS postings
     FROM balance b FULL JOIN sums s
       ON s.wallet_address = b.wallet_address AND s.asset = b.asset
     WHERE coalesce(b.available, 0) + coalesce(b.held, 0) <> coalesce(s.total, 0)
     LIMIT 20`,
  );
  for (const m of mismatched) {
    problems.push(
      `balance ${String(m.wallet_address)} ${String(m.asset)} is ${String(m.balance)} but its postings sum to ${String(m.postings)}`,
    );
  }

  const holds = await query(
    `WITH reserved AS (
       SELECT from_wallet AS wallet_address, asset, sum(amount) AS total FROM transfer_request
       WHERE status = 'pending_recipient_acceptance' GROUP BY from_wallet, asset
     )
     SELECT coalesce(b.wallet_address, r.wallet_address) AS wallet_address,
            coalesce(b.asset, r.asset) AS asset,
            coalesce(b.held, 0)::text AS held, coalesce(r.total, 0)::text AS reserved
     FROM balance b FULL JOIN reserved r
       ON r.wallet_address = b.wallet_address AND r.asset = b.asset
     WHERE coalesce(b.held, 0) <> coalesce(r.total, 0)
     LIMIT 20`,
  );
  for (const h of holds) {
    problems.push(
      `held ${String(h.wallet_address)} ${String(h.asset)} is ${String(h.held)} but reservations sum to ${String(h.reserved)}`,
    );
  }

  const unchained = await query(
    `SELECT id, wallet_address, asset, balance_after::text, (coalesce(previous, 0) + amount)::text AS expected
     FROM (SELECT id, wallet_address, asset, amount, balance_after,
                  lag(balance_after) OVER (PARTITION BY wallet_address, asset ORDER BY id) AS previous
           FROM posting WHERE wallet_address <> '${issuance}') p
     WHERE balance_after IS DISTINCT FROM coalesce(previous, 0) + amount
     LIMIT 20`,
  );
  for (const u of unchained) {
    problems.push(
      `posting ${String(u.id)} of ${String(u.wallet_address)} ${String(u.asset)} says balance_after ${String(u.balance_after)}, expected ${String(u.expected)}`,
    );
  }

  const [counts] = (await query(
    `SELECT (SELECT count(*) FROM journal_entry)::int AS entries,
            (SELECT count(*) FROM posting)::int AS postings,
            (SELECT count(*) FROM balance)::int AS balances`,
  )) as { entries: number; postings: number; balances: number }[];

  return { ok: problems.length === 0, problems, assets, counts };
}

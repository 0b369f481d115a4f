-- wallet_entry_result(entry, fingerprint): the answer to an idempotent retry
-- (docs/wallet.md § Ledger). Raises WL002 when the idempotency key was used with another request
-- (another fingerprint); otherwise returns the original movement's result, with the balances
-- its postings recorded.
CREATE OR REPLACE FUNCTION wallet_entry_result(p_entry journal_entry, p_fingerprint text)
RETURNS TABLE (
  r_entry_id uuid, r_replayed boolean, r_created_at timestamptz, r_amount numeric,
  r_to_amount numeric, r_rate numeric, r_from_balance numeric, r_to_balance numeric
) LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  IF p_entry.request_fingerprint IS DISTINCT FROM p_fingerprint THEN
    RAISE EXCEPTION 'idempotency key reused with a different request' USING ERRCODE = 'WL002';
  END IF;
  RETURN QUERY SELECT p_entry.id, true, p_entry.created_at, p_entry.amount, p_entry.to_amount,
    p_entry.rate,
    (SELECT p.balance_after FROM posting p WHERE p.entry_id = p_entry.id
       AND p.wallet_address = p_entry.from_wallet AND p.asset = p_entry.from_asset
       AND p.amount < 0),
    (SELECT p.balance_after FROM posting p WHERE p.entry_id = p_entry.id
       AND p.wallet_address = p_entry.to_wallet AND p.asset = p_entry.to_asset
       AND p.amount > 0);
END
$fn$;

-- Frozen copy of the ledger SQL as the migrations up to 1795700000000 left it, verbatim, so that
-- LedgerSqlFiles1795800000000.down() restores it exactly. Never edit: the current definition is
-- modules/ledger/sql/wallet_entry_result.sql.
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

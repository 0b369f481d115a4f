-- wallet_move(...): every single money movement in ONE statement (docs/wallet.md § Ledger).
--
-- It records the journal entry (idempotently), debits the source with a balance guard, credits
-- the destination, writes balanced postings and returns the result. Balance rows are locked in
-- a fixed order ((wallet, asset) ascending), so two opposite transfers cannot deadlock, and a hot
-- balance row stays locked for one round trip plus the commit. Money never leaves a closed
-- wallet (WL009): the service authorizes from a cached wallet identity, and whether the wallet
-- is still open is decided here, in the statement that moves the money.
--
-- Errors (SQLSTATE, mapped in ledger.errors.ts): WL001 insufficient funds, WL002 idempotency key
-- reused with another request, WL003 recipient wallet unknown, WL004 recipient wallet closed,
-- WL005 no conversion rate, WL006 converted amount rounds to zero, WL007 invalid amount, WL008
-- nothing to move, WL009 source wallet closed.
CREATE OR REPLACE FUNCTION wallet_move(
  p_type text,
  p_from bpchar, p_from_asset text, p_amount numeric,
  p_to bpchar, p_to_asset text,
  p_description text, p_metadata jsonb, p_reference_id text, p_initiated_by text,
  p_idempotency_scope text, p_idempotency_key text, p_fingerprint text,
  p_source_held boolean, p_transfer_request_id uuid
) RETURNS TABLE (
  r_entry_id uuid, r_replayed boolean, r_created_at timestamptz, r_amount numeric,
  r_to_amount numeric, r_rate numeric, r_from_balance numeric, r_to_balance numeric
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_issuance constant bpchar := '0x0000000000000000000000000000000000000000';
  v_id uuid := gen_random_uuid();
  v_now timestamptz := now();
  v_rate numeric;
  v_to_amount numeric := p_amount;
  v_from_balance numeric;
  v_to_balance numeric;
  v_closed timestamptz;
  v_debit_first boolean;
  v_existing journal_entry%ROWTYPE;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 OR p_amount <> round(p_amount, 8) THEN
    RAISE EXCEPTION 'amount must be positive with at most 8 decimals' USING ERRCODE = 'WL007';
  END IF;
  IF (p_from IS NULL AND p_to IS NULL)
     OR (p_from = p_to AND p_from_asset = p_to_asset) THEN
    RAISE EXCEPTION 'nothing to move' USING ERRCODE = 'WL008';
  END IF;

  -- A retry that arrives after the original committed: answer without locking anything.
  IF p_idempotency_key IS NOT NULL THEN
    SELECT * INTO v_existing FROM journal_entry j
     WHERE j.idempotency_scope = p_idempotency_scope AND j.idempotency_key = p_idempotency_key;
    IF FOUND THEN
      RETURN QUERY SELECT * FROM wallet_entry_result(v_existing, p_fingerprint);
      RETURN;
    END IF;
  END IF;

  IF p_from_asset <> p_to_asset THEN
    SELECT r.rate INTO v_rate FROM conversion_rate r
     WHERE r.from_asset = p_from_asset AND r.to_asset = p_to_asset;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no conversion rate from % to %', p_from_asset, p_to_asset
        USING ERRCODE = 'WL005';
    END IF;
    v_to_amount := trunc(p_amount * v_rate, 8);
    IF v_to_amount <= 0 THEN
      RAISE EXCEPTION 'converted amount rounds to zero' USING ERRCODE = 'WL006';
    END IF;
  END IF;

  IF p_from IS NOT NULL THEN
    SELECT w.closed_at INTO v_closed FROM wallet w WHERE w.address_hash = p_from;
    IF NOT FOUND OR v_closed IS NOT NULL THEN
      RAISE EXCEPTION 'source wallet % is closed', p_from USING ERRCODE = 'WL009';
    END IF;
  END IF;

  IF p_to IS NOT NULL AND p_to IS DISTINCT FROM p_from THEN
    SELECT w.closed_at INTO v_closed FROM wallet w WHERE w.address_hash = p_to;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'recipient wallet % not found', p_to USING ERRCODE = 'WL003';
    END IF;
    IF v_closed IS NOT NULL THEN
      RAISE EXCEPTION 'recipient wallet % is closed', p_to USING ERRCODE = 'WL004';
    END IF;
  END IF;

  -- The journal entry first: a racing duplicate waits here on the unique index until the
  -- original commits (then answers with it) or rolls back (then proceeds itself).
  INSERT INTO journal_entry (id, type, from_wallet, to_wallet, from_asset, to_asset, amount,
    to_amount, rate, description, metadata, reference_id, idempotency_scope,
    idempotency_key, request_fingerprint, initiated_by, transfer_request_id, created_at)
  VALUES (v_id, p_type, p_from, p_to, p_from_asset, p_to_asset, p_amount, v_to_amount, v_rate,
    coalesce(p_description, ''), coalesce(p_metadata, '{}'::jsonb), p_reference_id,
    p_idempotency_scope, p_idempotency_key, p_fingerprint, p_initiated_by,
    p_transfer_request_id, v_now)
  ON CONFLICT (idempotency_scope, idempotency_key) WHERE idempotency_key IS NOT NULL
  DO NOTHING;
  IF NOT FOUND THEN
    SELECT * INTO v_existing FROM journal_entry j
     WHERE j.idempotency_scope = p_idempotency_scope AND j.idempotency_key = p_idempotency_key;
    RETURN QUERY SELECT * FROM wallet_entry_result(v_existing, p_fingerprint);
    RETURN;
  END IF;

  -- Balance rows in (wallet, asset) order: debit with its guard, credit by upsert.
  v_debit_first := p_to IS NULL
    OR (p_from IS NOT NULL AND (p_from, p_from_asset) < (p_to, p_to_asset));
  FOR v_step IN 1..2 LOOP
    IF (v_step = 1) = v_debit_first THEN
      IF p_from IS NOT NULL THEN
        IF p_source_held THEN
          UPDATE balance b SET held = b.held - p_amount, updated_at = v_now
           WHERE b.wallet_address = p_from AND b.asset = p_from_asset AND b.held >= p_amount
          RETURNING b.available + b.held INTO v_from_balance;
        ELSE
          UPDATE balance b SET available = b.available - p_amount, updated_at = v_now
           WHERE b.wallet_address = p_from AND b.asset = p_from_asset
             AND b.available >= p_amount
          RETURNING b.available + b.held INTO v_from_balance;
        END IF;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'WL001';
        END IF;
      END IF;
    ELSIF p_to IS NOT NULL THEN
      INSERT INTO balance AS b (wallet_address, asset, available, held, updated_at)
      VALUES (p_to, p_to_asset, v_to_amount, 0, v_now)
      ON CONFLICT (wallet_address, asset) DO UPDATE
        SET available = b.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at
      RETURNING b.available + b.held INTO v_to_balance;
    END IF;
  END LOOP;

  IF p_from_asset = p_to_asset THEN
    INSERT INTO posting (entry_id, wallet_address, asset, amount, balance_after,
      counterparty_address, created_at)
    VALUES
      (v_id, coalesce(p_from, v_issuance), p_from_asset, -p_amount, v_from_balance, p_to, v_now),
      (v_id, coalesce(p_to, v_issuance), p_to_asset, v_to_amount, v_to_balance, p_from, v_now);
  ELSE
    INSERT INTO posting (entry_id, wallet_address, asset, amount, balance_after,
      counterparty_address, created_at)
    VALUES
      (v_id, coalesce(p_from, v_issuance), p_from_asset, -p_amount, v_from_balance, NULL, v_now),
      (v_id, v_issuance, p_from_asset, p_amount, NULL, p_from, v_now),
      (v_id, v_issuance, p_to_asset, -v_to_amount, NULL, p_to, v_now),
      (v_id, coalesce(p_to, v_issuance), p_to_asset, v_to_amount, v_to_balance, NULL, v_now);
  END IF;

  RETURN QUERY SELECT v_id, false, v_now, p_amount, v_to_amount, v_rate, v_from_balance,
    v_to_balance;
END
$fn$;

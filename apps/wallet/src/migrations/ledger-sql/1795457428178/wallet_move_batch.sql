-- Frozen copy of wallet_move_batch as migration 1795457428178 left it, verbatim, so that the next
-- migration's down() restores it exactly. Never edit: the current definition is
-- modules/ledger/sql/wallet_move_batch.sql.
      CREATE OR REPLACE FUNCTION wallet_move_batch(p_items jsonb) RETURNS TABLE (
        r_index integer, r_entry_id uuid, r_replayed boolean, r_created_at timestamptz,
        r_amount numeric, r_to_amount numeric, r_rate numeric, r_from_balance numeric,
        r_to_balance numeric, r_sqlstate text, r_message text
      ) LANGUAGE plpgsql AS $fn$
      DECLARE
        v_item jsonb;
        v_index integer := 0;
        v_row record;
      BEGIN
        PERFORM 1 FROM balance b
         WHERE (b.wallet_address, b.asset) IN (
           SELECT (i->>'from')::bpchar, i->>'from_asset' FROM jsonb_array_elements(p_items) i
            WHERE i->>'from' IS NOT NULL
           UNION
           SELECT (i->>'to')::bpchar, i->>'to_asset' FROM jsonb_array_elements(p_items) i
            WHERE i->>'to' IS NOT NULL)
         ORDER BY b.wallet_address, b.asset
         FOR UPDATE;

        FOR v_item IN SELECT i FROM jsonb_array_elements(p_items) i LOOP
          BEGIN
            SELECT * INTO STRICT v_row FROM wallet_move(
              v_item->>'type',
              (v_item->>'from')::bpchar, v_item->>'from_asset', (v_item->>'amount')::numeric,
              (v_item->>'to')::bpchar, v_item->>'to_asset',
              v_item->>'description', v_item->'metadata', v_item->>'reference_id',
              v_item->>'initiated_by', v_item->>'idempotency_scope', v_item->>'idempotency_key',
              v_item->>'fingerprint', coalesce((v_item->>'source_held')::boolean, false),
              (v_item->>'transfer_request_id')::uuid);
            RETURN QUERY SELECT v_index, v_row.r_entry_id, v_row.r_replayed, v_row.r_created_at,
              v_row.r_amount, v_row.r_to_amount, v_row.r_rate, v_row.r_from_balance,
              v_row.r_to_balance, NULL::text, NULL::text;
          EXCEPTION WHEN OTHERS THEN
            RETURN QUERY SELECT v_index, NULL::uuid, NULL::boolean, NULL::timestamptz,
              NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric,
              SQLSTATE::text, SQLERRM::text;
          END;
          v_index := v_index + 1;
        END LOOP;
      END
      $fn$;

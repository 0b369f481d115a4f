import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * This migration's `wallet_move_batch`; the next migration's `down` restores it from the frozen
 * copy `ledger-sql/1795600000000/`.
 */
const WALLET_MOVE_BATCH_SET = `
      CREATE OR REPLACE FUNCTION wallet_move_batch(p_items jsonb) RETURNS TABLE (
        r_index integer, r_entry_id uuid, r_replayed boolean, r_created_at timestamptz,
        r_amount numeric, r_to_amount numeric, r_rate numeric, r_from_balance numeric,
        r_to_balance numeric, r_sqlstate text, r_message text
      ) LANGUAGE plpgsql AS $fn$
      DECLARE
        v_now timestamptz := now();
        v_item jsonb;
        v_index integer := 0;
        v_row record;
        v_plain boolean;
        v_plains boolean[] := '{}';
        v_from bpchar;
        v_amount numeric;
        v_balance numeric;
        v_to bpchar;
        v_asset text;
        v_to_state text;
        v_to_message text;
        v_state text;
        v_message text;
        v_total numeric := 0;
        v_to_balance numeric;
        s_index integer[] := '{}';
        s_id uuid[] := '{}';
        s_from bpchar[] := '{}';
        s_amount numeric[] := '{}';
        s_from_balance numeric[] := '{}';
        s_to_running numeric[] := '{}';
        s_to_balance numeric[];
        s_description text[] := '{}';
        s_metadata jsonb[] := '{}';
        s_reference text[] := '{}';
        s_initiated_by text[] := '{}';
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

        -- Which items are plain transfers into the batch's destination: that of the first
        -- plain-shaped item.
        FOR v_item IN SELECT i FROM jsonb_array_elements(p_items) i LOOP
          v_plain := v_item->>'type' = 'transfer'
            AND v_item->>'from' IS NOT NULL AND v_item->>'to' IS NOT NULL
            AND v_item->>'from_asset' = v_item->>'to_asset'
            AND (v_item->>'from')::bpchar <> (v_item->>'to')::bpchar
            AND v_item->>'idempotency_key' IS NULL
            AND v_item->>'transfer_request_id' IS NULL
            AND NOT coalesce((v_item->>'source_held')::boolean, false);
          IF v_plain AND v_to IS NULL THEN
            v_to := (v_item->>'to')::bpchar;
            v_asset := v_item->>'to_asset';
          ELSIF v_plain THEN
            v_plain := (v_item->>'to')::bpchar = v_to AND v_item->>'to_asset' = v_asset;
          END IF;
          v_plains := v_plains || v_plain;
        END LOOP;

        -- Every other item first, through wallet_move, each in its own subtransaction.
        FOR v_item IN SELECT i FROM jsonb_array_elements(p_items) i LOOP
          IF NOT v_plains[v_index + 1] THEN
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
          END IF;
          v_index := v_index + 1;
        END LOOP;

        IF v_to IS NULL THEN
          RETURN;
        END IF;
        -- The destination, checked once (wallet_move checks it for each item).
        SELECT CASE WHEN w.closed_at IS NULL THEN NULL ELSE 'WL004' END INTO v_to_state
          FROM wallet w WHERE w.address_hash = v_to;
        IF NOT FOUND THEN
          v_to_state := 'WL003';
          v_to_message := format('recipient wallet %s not found', v_to);
        ELSIF v_to_state IS NOT NULL THEN
          v_to_message := format('recipient wallet %s is closed', v_to);
        END IF;

        -- Then the plain transfers, in item order: one guarded debit each (the source's being
        -- open checked in the same statement; why it failed only asked when it did).
        v_index := 0;
        FOR v_item IN SELECT i FROM jsonb_array_elements(p_items) i LOOP
          IF v_plains[v_index + 1] THEN
            v_from := (v_item->>'from')::bpchar;
            v_amount := (v_item->>'amount')::numeric;
            v_state := NULL;
            IF v_amount IS NULL OR v_amount <= 0 OR v_amount <> round(v_amount, 8) THEN
              v_state := 'WL007';
              v_message := 'amount must be positive with at most 8 decimals';
            ELSIF v_to_state IS NULL THEN
              UPDATE balance b SET available = b.available - v_amount, updated_at = v_now
               WHERE b.wallet_address = v_from AND b.asset = v_asset AND b.available >= v_amount
                 AND EXISTS (SELECT 1 FROM wallet w
                              WHERE w.address_hash = v_from AND w.closed_at IS NULL)
              RETURNING b.available + b.held INTO v_balance;
              IF NOT FOUND THEN
                v_state := 'WL001';
                v_message := 'insufficient funds';
              END IF;
            ELSE
              v_state := v_to_state;
              v_message := v_to_message;
            END IF;
            -- A closed source comes before any other refusal but the amount (as in wallet_move).
            IF v_state IN ('WL001', 'WL003', 'WL004') AND NOT EXISTS (
                 SELECT 1 FROM wallet w WHERE w.address_hash = v_from AND w.closed_at IS NULL) THEN
              v_state := 'WL009';
              v_message := format('source wallet %s is closed', v_from);
            END IF;
            IF v_state IS NULL THEN
              v_total := v_total + v_amount;
              s_index := s_index || v_index;
              s_id := s_id || gen_random_uuid();
              s_from := s_from || v_from;
              s_amount := s_amount || v_amount;
              s_from_balance := s_from_balance || v_balance;
              -- The destination's balance after this item, less what it held before them all.
              s_to_running := s_to_running || v_total;
              s_description := s_description || coalesce(v_item->>'description', '');
              s_metadata := s_metadata || coalesce(v_item->'metadata', '{}'::jsonb);
              s_reference := s_reference || (v_item->>'reference_id');
              s_initiated_by := s_initiated_by || (v_item->>'initiated_by');
            ELSE
              RETURN QUERY SELECT v_index, NULL::uuid, NULL::boolean, NULL::timestamptz,
                NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric,
                v_state, v_message;
            END IF;
          END IF;
          v_index := v_index + 1;
        END LOOP;

        IF cardinality(s_index) = 0 THEN
          RETURN;
        END IF;

        INSERT INTO balance AS b (wallet_address, asset, available, held, updated_at)
        VALUES (v_to, v_asset, v_total, 0, v_now)
        ON CONFLICT (wallet_address, asset) DO UPDATE
          SET available = b.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at
        RETURNING b.available + b.held INTO v_to_balance;
        -- What the destination held before the plain transfers, plus each one's running total.
        s_to_balance := ARRAY(SELECT v_to_balance - v_total + r
                                FROM unnest(s_to_running) WITH ORDINALITY AS t(r, ord)
                               ORDER BY t.ord);

        INSERT INTO journal_entry (id, type, from_wallet, to_wallet, from_asset, to_asset, amount,
          to_amount, rate, description, metadata, reference_id, idempotency_scope,
          idempotency_key, request_fingerprint, initiated_by, transfer_request_id, created_at)
        SELECT s.id, 'transfer', s.from_wallet, v_to, v_asset, v_asset, s.amount, s.amount, NULL,
          s.description, s.metadata, s.reference_id, NULL, NULL, NULL, s.initiated_by, NULL, v_now
          FROM unnest(s_id, s_from, s_amount, s_description, s_metadata, s_reference,
                      s_initiated_by)
               WITH ORDINALITY AS s(id, from_wallet, amount, description, metadata, reference_id,
                                    initiated_by, ord)
         ORDER BY s.ord;

        -- Two postings per transfer, in item order: the source's, then the destination's.
        INSERT INTO posting (entry_id, wallet_address, asset, amount, balance_after,
          counterparty_address, created_at)
        SELECT p.entry_id, p.wallet_address, v_asset, p.amount, p.balance_after, p.counterparty,
          v_now
          FROM unnest(s_id, s_from, s_amount, s_from_balance, s_to_balance)
               WITH ORDINALITY AS s(id, from_wallet, amount, from_balance, to_balance, ord)
               CROSS JOIN LATERAL (VALUES
                 (0, s.id, s.from_wallet, -s.amount, s.from_balance, v_to),
                 (1, s.id, v_to, s.amount, s.to_balance, s.from_wallet)
               ) AS p(side, entry_id, wallet_address, amount, balance_after, counterparty)
         ORDER BY s.ord, p.side;

        RETURN QUERY
          SELECT s.idx, s.id, false, v_now, s.amount, s.amount, NULL::numeric, s.from_balance,
                 s.to_balance, NULL::text, NULL::text
            FROM unnest(s_index, s_id, s_amount, s_from_balance, s_to_balance)
                 AS s(idx, id, amount, from_balance, to_balance);
      END
      $fn$`;

/**
 * Hand-written: `wallet_move_batch` applies plain transfers into the batch's destination
 * set-wise (docs/wallet.md § Group commit).
 *
 * The first version ran `wallet_move` for every item in its own subtransaction: about eight
 * statements, an exception block and a statement trigger per item, ≈ 0.35 ms of PostgreSQL per
 * movement while the hot balance row stayed locked (≈ 0.13 ms now).
 *
 * - A **plain transfer** is of type `transfer`, in one asset, from a source other than the
 *   destination, without idempotency key, transfer request or held funds, into the same
 *   (wallet, asset) as the batch's first plain-shaped item. It costs one guarded `UPDATE` of
 *   its source; after them the batch writes the destination once (the sum), the journal
 *   entries in one `INSERT` and the postings in one `INSERT`.
 * - A plain transfer that fails (insufficient funds, a closed source, an unknown or closed
 *   recipient, a bad amount) has written nothing and is reported with the SQLSTATE and message
 *   `wallet_move` would raise.
 * - Every other item runs `wallet_move` in its own subtransaction, as before, and runs first.
 *   So money moves, and postings are written, in this order: the other items, then the plain
 *   transfers, each group in item order. Every wallet's postings (by id) follow the order its
 *   balance changed in, and each `balance_after` is what the wallet held right after that
 *   movement (the destination's: its final balance less the later plain transfers).
 * - Locks are taken first, in (wallet, asset) order, as before: batches and single movements
 *   cannot deadlock. An error outside an item (e.g. numeric overflow of the destination) rolls
 *   the whole batch back, and the service then runs its movements one by one.
 *
 * Same signature and result as before: one row per item, `r_index` 0-based.
 */
export class WalletMoveBatchSet1795600000000 implements MigrationInterface {
  name = 'WalletMoveBatchSet1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(WALLET_MOVE_BATCH_SET);
  }

  /** Restores the previous `wallet_move_batch` (frozen copy; migrations do not import each other). */
  async down(queryRunner: QueryRunner): Promise<void> {
    const file = join(__dirname, 'ledger-sql', '1795457428178', 'wallet_move_batch.sql');
    await queryRunner.query(readFileSync(file, 'utf8'));
  }
}

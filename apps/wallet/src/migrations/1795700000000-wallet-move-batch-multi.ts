import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hand-written: `wallet_move_batch` applies plain transfers set-wise into **any number of
 * destinations**, not only the batch's first one (docs/wallet.md § Group commit).
 *
 * The service now commits movements into different wallets together when its ledger calls are
 * all busy (`MoveBatcher`, `WALLET_LEDGER_CONCURRENCY`), so a batch of transfers between random
 * wallets is the common case, not only many senders into one hot wallet. Through `wallet_move`
 * each such item cost ≈ 0.35 ms of PostgreSQL in its own subtransaction.
 *
 * - A **plain transfer** is of type `transfer`, in one asset, from a source other than the
 *   destination, without idempotency key, transfer request or held funds, and no wallet both
 *   pays in one plain transfer of the batch and receives in another. It costs one guarded
 *   `UPDATE` of its source (which also checks that source and recipient are open); after them
 *   the batch credits each destination balance once (its sum), and writes the journal entries in
 *   one `INSERT` and the postings in one `INSERT`.
 * - Because no wallet both pays and receives among the plain transfers, every wallet's balance
 *   only falls (sources, in item order) or only rises (destinations) in that phase: each
 *   `balance_after` is exact (a destination's: its final balance less its later plain
 *   transfers), postings by id follow the order balances changed in, and the outcome is that of
 *   running the items one by one in item order. A wallet that would both pay and receive makes
 *   its items ordinary ones.
 * - A plain transfer that fails (insufficient funds, a closed source, an unknown or closed
 *   recipient, a bad amount) has written nothing and is reported with the SQLSTATE and message
 *   `wallet_move` would raise, in its order: amount (WL007), closed source (WL009), recipient
 *   (WL003, WL004), funds (WL001).
 * - Every other item runs `wallet_move` in its own subtransaction, first, as before.
 * - Locks are taken first, in (wallet, asset) order, as before; new destination balances are
 *   inserted in that order too. An error outside an item rolls the whole batch back, and the
 *   service then runs its movements one by one.
 *
 * Same signature and result as before: one row per item, `r_index` 0-based.
 */
export class WalletMoveBatchMulti1795700000000 implements MigrationInterface {
  name = 'WalletMoveBatchMulti1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
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
        v_plains boolean[];
        v_from bpchar;
        v_to bpchar;
        v_asset text;
        v_amount numeric;
        v_balance numeric;
        v_to_closed boolean;
        v_state text;
        v_message text;
        s_index integer[] := '{}';
        s_id uuid[] := '{}';
        s_from bpchar[] := '{}';
        s_to bpchar[] := '{}';
        s_asset text[] := '{}';
        s_amount numeric[] := '{}';
        s_from_balance numeric[] := '{}';
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

        -- Which items are plain transfers: plain-shaped, and no wallet pays in one of those
        -- and receives in another.
        WITH shaped AS (
          SELECT t.ord, (t.i->>'from')::bpchar AS from_wallet, (t.i->>'to')::bpchar AS to_wallet,
                 t.i->>'type' = 'transfer'
                   AND t.i->>'from' IS NOT NULL AND t.i->>'to' IS NOT NULL
                   AND t.i->>'from_asset' = t.i->>'to_asset'
                   AND (t.i->>'from')::bpchar <> (t.i->>'to')::bpchar
                   AND t.i->>'idempotency_key' IS NULL
                   AND t.i->>'transfer_request_id' IS NULL
                   AND NOT coalesce((t.i->>'source_held')::boolean, false) AS plain
            FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(i, ord)
        )
        SELECT array_agg(
                 s.plain AND NOT EXISTS (
                   SELECT 1 FROM shaped o
                    WHERE o.plain AND (o.to_wallet = s.from_wallet OR o.from_wallet = s.to_wallet))
                 ORDER BY s.ord)
          INTO v_plains
          FROM shaped s;

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

        -- Then the plain transfers, in item order: one guarded debit each, which also checks
        -- that the source and the recipient are open; why it failed is asked only when it did.
        v_index := 0;
        FOR v_item IN SELECT i FROM jsonb_array_elements(p_items) i LOOP
          IF v_plains[v_index + 1] THEN
            v_from := (v_item->>'from')::bpchar;
            v_to := (v_item->>'to')::bpchar;
            v_asset := v_item->>'to_asset';
            v_amount := (v_item->>'amount')::numeric;
            v_state := NULL;
            IF v_amount IS NULL OR v_amount <= 0 OR v_amount <> round(v_amount, 8) THEN
              v_state := 'WL007';
              v_message := 'amount must be positive with at most 8 decimals';
            ELSE
              UPDATE balance b SET available = b.available - v_amount, updated_at = v_now
               WHERE b.wallet_address = v_from AND b.asset = v_asset AND b.available >= v_amount
                 AND EXISTS (SELECT 1 FROM wallet w
                              WHERE w.address_hash = v_from AND w.closed_at IS NULL)
                 AND EXISTS (SELECT 1 FROM wallet w
                              WHERE w.address_hash = v_to AND w.closed_at IS NULL)
              RETURNING b.available + b.held INTO v_balance;
              IF NOT FOUND AND NOT EXISTS (SELECT 1 FROM wallet w
                                            WHERE w.address_hash = v_from AND w.closed_at IS NULL)
              THEN
                v_state := 'WL009';
                v_message := format('source wallet %s is closed', v_from);
              ELSIF NOT FOUND THEN
                SELECT w.closed_at IS NOT NULL INTO v_to_closed
                  FROM wallet w WHERE w.address_hash = v_to;
                IF NOT FOUND THEN
                  v_state := 'WL003';
                  v_message := format('recipient wallet %s not found', v_to);
                ELSIF v_to_closed THEN
                  v_state := 'WL004';
                  v_message := format('recipient wallet %s is closed', v_to);
                ELSE
                  v_state := 'WL001';
                  v_message := 'insufficient funds';
                END IF;
              END IF;
            END IF;
            IF v_state IS NULL THEN
              s_index := s_index || v_index;
              s_id := s_id || gen_random_uuid();
              s_from := s_from || v_from;
              s_to := s_to || v_to;
              s_asset := s_asset || v_asset;
              s_amount := s_amount || v_amount;
              s_from_balance := s_from_balance || v_balance;
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

        -- Each destination balance credited once with its sum; each transfer's balance_after
        -- is the destination's final balance less its later plain transfers.
        WITH credits AS (
          SELECT c.ord, c.to_wallet, c.asset,
                 sum(c.amount) OVER (PARTITION BY c.to_wallet, c.asset ORDER BY c.ord) AS running,
                 sum(c.amount) OVER (PARTITION BY c.to_wallet, c.asset) AS total
            FROM unnest(s_to, s_asset, s_amount) WITH ORDINALITY AS c(to_wallet, asset, amount, ord)
        ), credited AS (
          INSERT INTO balance AS b (wallet_address, asset, available, held, updated_at)
          SELECT c.to_wallet, c.asset, min(c.total), 0, v_now
            FROM credits c
           GROUP BY c.to_wallet, c.asset
           ORDER BY c.to_wallet, c.asset
          ON CONFLICT (wallet_address, asset) DO UPDATE
            SET available = b.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at
          RETURNING b.wallet_address, b.asset, b.available + b.held AS balance
        )
        SELECT array_agg(d.balance - c.total + c.running ORDER BY c.ord) INTO s_to_balance
          FROM credits c
          JOIN credited d ON d.wallet_address = c.to_wallet AND d.asset = c.asset;

        INSERT INTO journal_entry (id, type, from_wallet, to_wallet, from_asset, to_asset, amount,
          to_amount, rate, description, metadata, reference_id, idempotency_scope,
          idempotency_key, request_fingerprint, initiated_by, transfer_request_id, created_at)
        SELECT s.id, 'transfer', s.from_wallet, s.to_wallet, s.asset, s.asset, s.amount, s.amount,
          NULL, s.description, s.metadata, s.reference_id, NULL, NULL, NULL, s.initiated_by, NULL,
          v_now
          FROM unnest(s_id, s_from, s_to, s_asset, s_amount, s_description, s_metadata,
                      s_reference, s_initiated_by)
               WITH ORDINALITY AS s(id, from_wallet, to_wallet, asset, amount, description,
                                    metadata, reference_id, initiated_by, ord)
         ORDER BY s.ord;

        -- Two postings per transfer, in item order: the source's, then the destination's.
        INSERT INTO posting (entry_id, wallet_address, asset, amount, balance_after,
          counterparty_address, created_at)
        SELECT p.entry_id, p.wallet_address, s.asset, p.amount, p.balance_after, p.counterparty,
          v_now
          FROM unnest(s_id, s_from, s_to, s_asset, s_amount, s_from_balance, s_to_balance)
               WITH ORDINALITY AS s(id, from_wallet, to_wallet, asset, amount, from_balance,
                                    to_balance, ord)
               CROSS JOIN LATERAL (VALUES
                 (0, s.id, s.from_wallet, -s.amount, s.from_balance, s.to_wallet),
                 (1, s.id, s.to_wallet, s.amount, s.to_balance, s.from_wallet)
               ) AS p(side, entry_id, wallet_address, amount, balance_after, counterparty)
         ORDER BY s.ord, p.side;

        RETURN QUERY
          SELECT s.idx, s.id, false, v_now, s.amount, s.amount, NULL::numeric, s.from_balance,
                 s.to_balance, NULL::text, NULL::text
            FROM unnest(s_index, s_id, s_amount, s_from_balance, s_to_balance)
                 AS s(idx, id, amount, from_balance, to_balance);
      END
      $fn$`);
  }

  /** Restores the previous `wallet_move_batch` (frozen copy; migrations do not import each other). */
  async down(queryRunner: QueryRunner): Promise<void> {
    const file = join(__dirname, 'ledger-sql', '1795600000000', 'wallet_move_batch.sql');
    await queryRunner.query(readFileSync(file, 'utf8'));
  }
}

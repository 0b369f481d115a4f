import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first `wallet_move_batch` (every item through `wallet_move`); the next migration's `down`
 * restores it from the frozen copy `ledger-sql/1795457428178/`.
 */
const WALLET_MOVE_BATCH_V1 = `
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
      $fn$`;

/**
 * Hand-written: `wallet_move_batch(items jsonb)`, group commit for movements into one hot
 * balance (docs/wallet.md § Group commit). It first locks every existing balance row the batch
 * touches in (wallet, asset) order — the order single movements lock in, so batches and single
 * movements cannot deadlock — then runs `wallet_move` for each item in its own subtransaction
 * (a plpgsql block with an exception handler): an item that fails (insufficient funds, a reused
 * idempotency key, …) is rolled back alone and reported with its SQLSTATE, the others commit
 * together, with one WAL flush for the whole batch.
 *
 * Each item is an object with the parameters of `wallet_move` by name (`amount` as a decimal
 * string). Returns one row per item, in order: `r_index` (0-based), the `wallet_move` result
 * columns, and `r_sqlstate` / `r_message` (null on success).
 */
export class WalletMoveBatch1795457428178 implements MigrationInterface {
  name = 'WalletMoveBatch1795457428178';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(WALLET_MOVE_BATCH_V1);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION wallet_move_batch(jsonb)');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hand-written (TypeORM does not model functions or triggers; the drift check ignores them):
 *
 * - `wallet_move(...)`: every money movement in ONE statement (docs/wallet.md § Ledger). It
 *   records the journal entry (idempotently), debits the source with a balance guard, credits
 *   the destination, writes balanced postings and returns the result. Balance rows are locked
 *   in a fixed order ((wallet, asset) ascending), so two opposite transfers cannot deadlock, and
 *   a hot balance row stays locked for one round trip plus the commit.
 * - `wallet_entry_result(...)`: the answer to an idempotent retry.
 * - `posting_balanced`: refuses an INSERT of postings that do not sum to zero per (entry, asset).
 * - `*_append_only`: the journal and its postings are never updated or deleted.
 * - a backfill of `wallet.organization_id` for organization wallets opened before.
 *
 * Error codes (SQLSTATE, mapped in `ledger.errors.ts`): WL001 insufficient funds, WL002
 * idempotency key reused with another request, WL003 recipient wallet unknown, WL004 recipient
 * wallet closed, WL005 no conversion rate, WL006 converted amount rounds to zero, WL007 invalid
 * amount, WL008 nothing to move, WL900 unbalanced postings, WL901 append-only table.
 */
export class LedgerFunctions1795331800000 implements MigrationInterface {
  name = 'LedgerFunctions1795331800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Organization wallets opened before this release: access now follows `organization_id`.
    await queryRunner.query(
      `UPDATE wallet SET organization_id = entity_id::int
       WHERE entity_type = 'organization' AND organization_id IS NULL AND entity_id ~ '^[0-9]{1,9}$'`,
    );
    await queryRunner.query(`
      CREATE FUNCTION wallet_entry_result(p_entry journal_entry, p_fingerprint text)
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
      $fn$`);

    await queryRunner.query(`
      CREATE FUNCTION wallet_move(
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
      $fn$`);

    await queryRunner.query(`
      CREATE FUNCTION posting_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF EXISTS (SELECT 1 FROM new_postings GROUP BY entry_id, asset HAVING sum(amount) <> 0) THEN
          RAISE EXCEPTION 'postings of a journal entry must sum to zero per asset'
            USING ERRCODE = 'WL900';
        END IF;
        RETURN NULL;
      END
      $fn$`);
    await queryRunner.query(`
      CREATE TRIGGER posting_balanced AFTER INSERT ON posting
      REFERENCING NEW TABLE AS new_postings
      FOR EACH STATEMENT EXECUTE FUNCTION posting_check_balanced()`);

    await queryRunner.query(`
      CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'WL901';
      END
      $fn$`);
    for (const table of ['posting', 'journal_entry']) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
      await queryRunner.query(`
        CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only()`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['posting', 'journal_entry']) {
      await queryRunner.query(`DROP TRIGGER ${table}_no_truncate ON ${table}`);
      await queryRunner.query(`DROP TRIGGER ${table}_append_only ON ${table}`);
    }
    await queryRunner.query('DROP FUNCTION ledger_append_only()');
    await queryRunner.query('DROP TRIGGER posting_balanced ON posting');
    await queryRunner.query('DROP FUNCTION posting_check_balanced()');
    await queryRunner.query(
      'DROP FUNCTION wallet_move(text, bpchar, text, numeric, bpchar, text, text, jsonb, text, text, text, text, text, boolean, uuid)',
    );
    await queryRunner.query('DROP FUNCTION wallet_entry_result(journal_entry, text)');
  }
}

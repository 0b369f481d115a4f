-- Frozen copy of the ledger SQL as the migrations up to 1795700000000 left it, verbatim, so that
-- LedgerSqlFiles1795800000000.down() restores it exactly. Never edit: the current definition is
-- modules/ledger/sql/posting_balanced.sql.
      CREATE OR REPLACE FUNCTION posting_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF EXISTS (SELECT 1 FROM new_postings GROUP BY entry_id, asset HAVING sum(amount) <> 0) THEN
          RAISE EXCEPTION 'postings of a journal entry must sum to zero per asset'
            USING ERRCODE = 'WL900';
        END IF;
        RETURN NULL;
      END
      $fn$;

CREATE OR REPLACE TRIGGER posting_balanced AFTER INSERT ON posting
REFERENCING NEW TABLE AS new_postings
FOR EACH STATEMENT EXECUTE FUNCTION posting_check_balanced();

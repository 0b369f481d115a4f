-- The journal and its postings are append-only (docs/wallet.md § Ledger): UPDATE, DELETE and
-- TRUNCATE of journal_entry or posting raise WL901.
CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'WL901';
END
$fn$;

CREATE OR REPLACE TRIGGER posting_append_only BEFORE UPDATE OR DELETE ON posting
FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE OR REPLACE TRIGGER posting_no_truncate BEFORE TRUNCATE ON posting
FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

CREATE OR REPLACE TRIGGER journal_entry_append_only BEFORE UPDATE OR DELETE ON journal_entry
FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE OR REPLACE TRIGGER journal_entry_no_truncate BEFORE TRUNCATE ON journal_entry
FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- posting_balanced: refuses an INSERT of postings that do not sum to zero per (journal entry,
-- asset), WL900 (docs/wallet.md § Ledger). A statement trigger over the inserted rows, so a
-- movement's postings, inserted together, are checked together.
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

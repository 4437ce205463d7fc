-- References from postings, transfers and swaps to journal entries and accounts (decision 030),
-- as 0024 did for users and currencies.
--
-- A foreign key is checked row by row, after the statement, by a trigger that looks the row up
-- and locks it FOR KEY SHARE. A transfer writes two postings (two checks each) and a transfer
-- row, a swap five postings and a swap row: measured with apps/server/scripts/bench-transfer-batch.ts
-- (batches of 8, 2026-11-23), database CPU per transfer 138 -> 113 µs without these keys.
--
-- What the keys guarded is kept another way:
--   * the rows cannot name an entry or account that does not exist: the ledger functions are
--     the only writers, and take these ids from the rows they just inserted or locked in the
--     same statement; the audit checks every reference (ledger/audit.ts:
--     ledger_row_references_exist, business_row_entry_exists);
--   * a referenced row cannot disappear: accounts are never deleted (the trigger refuses, as the
--     key did), and an entry cannot be deleted while a posting, transfer or swap names it.
ALTER TABLE postings DROP CONSTRAINT postings_entry_id_journal_entries_id_fk;
--> statement-breakpoint
ALTER TABLE postings DROP CONSTRAINT postings_account_id_accounts_id_fk;
--> statement-breakpoint
ALTER TABLE transfers DROP CONSTRAINT transfers_entry_id_journal_entries_id_fk;
--> statement-breakpoint
ALTER TABLE swaps DROP CONSTRAINT swaps_entry_id_journal_entries_id_fk;
--> statement-breakpoint
CREATE TRIGGER accounts_never_deleted BEFORE DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION coffer_never_deleted();
--> statement-breakpoint
CREATE FUNCTION public.coffer_entry_unreferenced() RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = OLD.id)
     OR EXISTS (SELECT 1 FROM transfers t WHERE t.entry_id = OLD.id)
     OR EXISTS (SELECT 1 FROM swaps s WHERE s.entry_id = OLD.id) THEN
    RAISE EXCEPTION 'journal entry % is referenced: it cannot be deleted', OLD.id USING ERRCODE = 'CB900';
  END IF;
  RETURN OLD;
END $function$;
--> statement-breakpoint
CREATE TRIGGER journal_entries_referenced BEFORE DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION coffer_entry_unreferenced();

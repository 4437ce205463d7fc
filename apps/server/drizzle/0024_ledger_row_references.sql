-- References from the ledger's per-transfer and per-swap rows to users and currencies (decision 028).
--
-- A foreign key is checked row by row: for each new journal entry and transfer, PostgreSQL locks
-- the referenced users and currencies rows FOR KEY SHARE. Every transfer locks the same currency
-- row and its two users' rows, so each batch writes tuple locks (WAL, dirty pages) and two
-- batches that share a user or the currency turn those locks into multixacts. Measured with
-- apps/server/scripts/bench-transfer-batch.ts (batches of 16): 215 -> 165 µs of database CPU
-- per transfer without these four keys, and about half the wall time per batch.
--
-- What these keys guarded is kept another way:
--   * a referenced row cannot disappear: users and currencies are never deleted (no code path
--     does), and the triggers below now refuse a DELETE outright, as the keys did;
--   * a row cannot name a user or currency that does not exist: the ledger functions are the only
--     writers, and they take these ids from the users, sessions and currencies tables in the same
--     statement; the audit checks every reference (ledger/audit.ts: ledger_row_references_exist).
-- The keys to journal entries and accounts stay: they tie postings and transfers to the ledger.
ALTER TABLE transfers DROP CONSTRAINT transfers_from_user_id_users_id_fk;
--> statement-breakpoint
ALTER TABLE transfers DROP CONSTRAINT transfers_to_user_id_users_id_fk;
--> statement-breakpoint
ALTER TABLE transfers DROP CONSTRAINT transfers_currency_id_currencies_id_fk;
--> statement-breakpoint
ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_user_id_users_id_fk;
--> statement-breakpoint
-- The same on swaps (a swap row names its user and three currencies).
ALTER TABLE swaps DROP CONSTRAINT swaps_user_id_users_id_fk;
--> statement-breakpoint
ALTER TABLE swaps DROP CONSTRAINT swaps_from_currency_id_currencies_id_fk;
--> statement-breakpoint
ALTER TABLE swaps DROP CONSTRAINT swaps_to_currency_id_currencies_id_fk;
--> statement-breakpoint
ALTER TABLE swaps DROP CONSTRAINT swaps_fee_currency_id_currencies_id_fk;
--> statement-breakpoint
CREATE FUNCTION public.coffer_never_deleted() RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% rows are never deleted (the ledger refers to them)', TG_TABLE_NAME USING ERRCODE = 'CB900';
END $function$;
--> statement-breakpoint
CREATE TRIGGER users_never_deleted BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION coffer_never_deleted();
--> statement-breakpoint
CREATE TRIGGER currencies_never_deleted BEFORE DELETE ON currencies FOR EACH ROW EXECUTE FUNCTION coffer_never_deleted();

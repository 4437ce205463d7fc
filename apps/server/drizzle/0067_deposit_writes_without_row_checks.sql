-- The watcher's writes without row-by-row checks (decision 067). Recording a chunk of 200
-- deposits paid 600 foreign-key checks (user, currency, and the owner's event), and crediting
-- them 400 more (the entry, the event) plus one trigger call per deposit: on PostgreSQL most of
-- what a chunk costs. Kept another way, as for postings, transfers and swaps (decision 030):
-- users and currencies are never deleted (triggers), an entry a deposit names cannot be deleted
-- (coffer_entry_unreferenced, below), the watcher's SQL functions take the ids from
-- deposit_addresses, networks and the entries they insert, and the audit checks every
-- reference (ledger_row_references_exist, business_row_entry_exists). deposits.network_id keeps
-- its key: networks may be deleted while nothing names them.
ALTER TABLE deposits DROP CONSTRAINT deposits_user_id_fkey;
--> statement-breakpoint
ALTER TABLE deposits DROP CONSTRAINT deposits_currency_id_fkey;
--> statement-breakpoint
ALTER TABLE deposits DROP CONSTRAINT deposits_entry_id_fkey;
--> statement-breakpoint
ALTER TABLE user_events DROP CONSTRAINT user_events_user_id_fkey;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_entry_unreferenced()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = OLD.id)
     OR EXISTS (SELECT 1 FROM transfers t WHERE t.entry_id = OLD.id)
     OR EXISTS (SELECT 1 FROM swaps s WHERE s.entry_id = OLD.id)
     OR EXISTS (SELECT 1 FROM deposits d WHERE d.entry_id = OLD.id) THEN
    RAISE EXCEPTION 'journal entry % is referenced: it cannot be deleted', OLD.id USING ERRCODE = 'CB900';
  END IF;
  RETURN OLD;
END $function$;
--> statement-breakpoint
-- The UTXO outputs follow their deposits' status once per statement (the rows it changed, from
-- its transition tables) instead of once per row: a credit of 200 EVM deposits ran the row
-- trigger 200 times for nothing.
DROP TRIGGER deposits_utxo_output ON deposits;
--> statement-breakpoint
-- Its own planner settings: the callers' (the credit turns hash joins off, every access there
-- being by key) would make a nested loop of the two unindexed transition tables.
CREATE OR REPLACE FUNCTION public.coffer_utxo_output_follow()
 RETURNS trigger
 LANGUAGE plpgsql
 SET enable_hashjoin TO 'on'
 SET enable_seqscan TO 'on'
AS $function$
BEGIN
  INSERT INTO utxo_outputs (network_id, txid, vout, value, address, deposit_id, block_hash, block_number)
  SELECT d.network_id, d.tx_hash, d.log_index, (d.amount * power(10::numeric, n.token_decimals))::bigint,
         d.address, d.id, d.block_hash, d.block_number
  FROM new_rows d JOIN networks n ON n.id = d.network_id AND n.family = 'utxo' JOIN old_rows o ON o.id = d.id
  WHERE d.status = 'credited' AND o.status IS DISTINCT FROM d.status
  ON CONFLICT (network_id, txid, vout) DO UPDATE
    SET deposit_id = excluded.deposit_id, block_hash = excluded.block_hash, block_number = excluded.block_number, updated_at = now();
  DELETE FROM utxo_outputs u USING new_rows d JOIN old_rows o ON o.id = d.id
  WHERE u.deposit_id = d.id AND u.state = 'available'
    AND d.status IN ('dropped', 'reorged_after_credit') AND o.status IS DISTINCT FROM d.status;
  RETURN NULL;
END $function$;
--> statement-breakpoint
CREATE TRIGGER deposits_utxo_output AFTER UPDATE ON deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION coffer_utxo_output_follow();

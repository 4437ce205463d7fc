CREATE TRIGGER deposits_utxo_output AFTER UPDATE ON public.deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION coffer_utxo_output_follow();

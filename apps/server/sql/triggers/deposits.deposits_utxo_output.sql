CREATE TRIGGER deposits_utxo_output AFTER UPDATE OF status ON public.deposits FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION coffer_utxo_output_follow();

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
END $function$

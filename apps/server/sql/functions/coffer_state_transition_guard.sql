CREATE OR REPLACE FUNCTION public.coffer_state_transition_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- TG_ARGV[0]: the machine the table holds
  IF NOT EXISTS (SELECT 1 FROM state_transitions
                 WHERE machine = TG_ARGV[0] AND from_status = OLD.status AND to_status = NEW.status) THEN
    RAISE EXCEPTION '% %: % -> % is not an allowed move', TG_ARGV[0], OLD.id, OLD.status, NEW.status USING ERRCODE = 'CB007';
  END IF;
  RETURN NEW;
END $function$

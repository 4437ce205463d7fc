CREATE OR REPLACE FUNCTION public.coffer_never_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% rows are never deleted (the ledger refers to them)', TG_TABLE_NAME USING ERRCODE = 'CB900';
END $function$

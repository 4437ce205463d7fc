CREATE OR REPLACE FUNCTION public.coffer_operator_actions_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'operator_actions is append-only' USING ERRCODE = 'P0001';
END;
$function$

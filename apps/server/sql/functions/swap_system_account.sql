CREATE OR REPLACE FUNCTION public.swap_system_account(p_currency integer, p_kind text)
 RETURNS bigint
 LANGUAGE sql
AS $function$
  SELECT ledger_account(NULL, p_currency, p_kind)
$function$

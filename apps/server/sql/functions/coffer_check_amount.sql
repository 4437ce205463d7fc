CREATE OR REPLACE FUNCTION public.coffer_check_amount(p_currency integer, p_amount numeric, p_require_enabled boolean, p_apply_limits boolean)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_refusal text := coffer_amount_refusal(p_currency, p_amount, p_require_enabled, p_apply_limits);
BEGIN
  IF v_refusal = 'CB003' THEN
    RAISE EXCEPTION 'currency % is unavailable', p_currency USING ERRCODE = 'CB003';
  ELSIF v_refusal IS NOT NULL THEN
    RAISE EXCEPTION 'amount % is out of range for currency %', p_amount, p_currency USING ERRCODE = v_refusal;
  END IF;
  RETURN (SELECT decimals FROM currencies WHERE id = p_currency);
END $function$

CREATE OR REPLACE FUNCTION public.coffer_check_amount(p_currency integer, p_amount numeric, p_require_enabled boolean, p_apply_limits boolean)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_cur currencies%ROWTYPE;
BEGIN
  SELECT * INTO v_cur FROM currencies WHERE id = p_currency;
  IF NOT FOUND OR (p_require_enabled AND NOT v_cur.enabled) THEN
    RAISE EXCEPTION 'currency % is unavailable', p_currency USING ERRCODE = 'CB003';
  END IF;
  IF p_amount IS NULL OR p_amount <= 0 OR p_amount <> round(p_amount, v_cur.decimals)
     OR p_amount >= 1e20
     OR (p_apply_limits AND v_cur.transfer_min IS NOT NULL AND p_amount < v_cur.transfer_min)
     OR (p_apply_limits AND v_cur.transfer_max IS NOT NULL AND p_amount > v_cur.transfer_max) THEN
    RAISE EXCEPTION 'amount % is out of range for currency %', p_amount, p_currency USING ERRCODE = 'CB002';
  END IF;
  RETURN v_cur.decimals;
END $function$

CREATE OR REPLACE FUNCTION public.coffer_amount_refusal(p_currency integer, p_amount numeric, p_require_enabled boolean, p_apply_limits boolean)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_cur currencies%ROWTYPE;
BEGIN
  SELECT * INTO v_cur FROM currencies WHERE id = p_currency;
  IF NOT FOUND OR (p_require_enabled AND NOT v_cur.enabled) THEN
    RETURN 'CB003';
  END IF;
  IF p_amount IS NULL OR p_amount <= 0 OR p_amount <> round(p_amount, v_cur.decimals)
     OR p_amount >= 1e20
     OR (p_apply_limits AND v_cur.transfer_min IS NOT NULL AND p_amount < v_cur.transfer_min)
     OR (p_apply_limits AND v_cur.transfer_max IS NOT NULL AND p_amount > v_cur.transfer_max) THEN
    RETURN 'CB002';
  END IF;
  RETURN NULL;
END $function$

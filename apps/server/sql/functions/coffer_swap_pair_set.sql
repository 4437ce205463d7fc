CREATE OR REPLACE FUNCTION public.coffer_swap_pair_set(p_pair integer, p_mid_rate numeric, p_spread_bps integer, p_fee_bps integer, p_min numeric, p_max numeric, p_enabled boolean, p_actor_user bigint, p_actor text, p_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_old swap_pairs;
  v_new swap_pairs;
  v_decimals integer;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a swap pair change needs a reason and an actor' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_old FROM swap_pairs WHERE id = p_pair FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'swap pair % not found', p_pair USING ERRCODE = 'CB404';
  END IF;
  SELECT decimals INTO v_decimals FROM currencies WHERE id = v_old.from_currency_id;
  IF p_mid_rate IS NULL OR p_mid_rate <= 0 OR p_mid_rate <> round(p_mid_rate, 18)
     OR p_spread_bps IS NULL OR p_spread_bps NOT BETWEEN 0 AND 5000
     OR p_fee_bps IS NULL OR p_fee_bps NOT BETWEEN 0 AND 5000
     OR p_min <= 0 OR p_max <= 0 OR p_min > p_max
     OR p_min <> round(p_min, v_decimals) OR p_max <> round(p_max, v_decimals)
     OR p_enabled IS NULL THEN
    RAISE EXCEPTION 'swap pair setting out of range' USING ERRCODE = 'CB002';
  END IF;
  IF v_old.mid_rate = p_mid_rate AND v_old.spread_bps = p_spread_bps AND v_old.fee_bps = p_fee_bps
     AND v_old.min_amount IS NOT DISTINCT FROM p_min AND v_old.max_amount IS NOT DISTINCT FROM p_max
     AND v_old.enabled = p_enabled THEN
    RETURN false;
  END IF;
  UPDATE swap_pairs SET mid_rate = p_mid_rate, spread_bps = p_spread_bps, fee_bps = p_fee_bps,
         min_amount = p_min, max_amount = p_max, enabled = p_enabled, updated_at = now()
   WHERE id = p_pair
  RETURNING * INTO v_new;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'swap.pair.update', 'swap_pair', p_pair::text, p_reason,
    coffer_swap_pair_json(v_old), coffer_swap_pair_json(v_new));
  RETURN true;
END $function$

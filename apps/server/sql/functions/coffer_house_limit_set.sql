CREATE OR REPLACE FUNCTION public.coffer_house_limit_set(p_currency integer, p_limit numeric, p_actor_user bigint, p_actor text, p_reason text)
 RETURNS TABLE(h_changed boolean, h_limit numeric, h_balance numeric, h_min_balance numeric)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_acc bigint;
  v_balance numeric;
  v_min numeric;
  v_old_limit numeric;
  v_new_min numeric;
BEGIN
  IF p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a house limit change needs an actor' USING ERRCODE = '22023';
  END IF;
  PERFORM 1 FROM currencies WHERE id = p_currency;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'currency % not found', p_currency USING ERRCODE = 'CB003';
  END IF;
  IF p_limit IS NULL OR p_limit < 0 OR p_limit <> round(p_limit, 18) THEN
    RAISE EXCEPTION 'house limit out of range' USING ERRCODE = 'CB002';
  END IF;
  v_acc := swap_system_account(p_currency, 'house');
  SELECT balance, min_balance INTO v_balance, v_min FROM accounts WHERE id = v_acc FOR UPDATE;
  SELECT "limit" INTO v_old_limit FROM house_limits WHERE currency_id = p_currency FOR UPDATE;
  v_new_min := least(-p_limit, v_balance);
  IF v_old_limit = p_limit AND v_min IS NOT DISTINCT FROM v_new_min THEN
    RETURN QUERY SELECT false, p_limit, v_balance, v_min;
    RETURN;
  END IF;
  UPDATE accounts SET min_balance = v_new_min WHERE id = v_acc;
  INSERT INTO house_limits (currency_id, "limit", updated_at) VALUES (p_currency, p_limit, now())
  ON CONFLICT (currency_id) DO UPDATE SET "limit" = excluded."limit", updated_at = excluded.updated_at;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'swap.house_limit.set', 'currency', p_currency::text, p_reason,
    jsonb_build_object('limit', trim_scale(v_old_limit)::text, 'minBalance', trim_scale(v_min)::text,
                       'balance', trim_scale(v_balance)::text),
    jsonb_build_object('limit', trim_scale(p_limit)::text, 'minBalance', trim_scale(v_new_min)::text,
                       'balance', trim_scale(v_balance)::text));
  RETURN QUERY SELECT true, p_limit, v_balance, v_new_min;
END $function$

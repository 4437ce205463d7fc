CREATE OR REPLACE FUNCTION public.coffer_network_set(p_network integer, p_changes jsonb, p_hot_address text, p_actor_user bigint, p_actor text, p_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_old networks;
  v_new networks;
  v_key text;
  v_value jsonb;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a network change needs a reason and an actor' USING ERRCODE = '22023';
  END IF;
  IF p_changes IS NULL OR jsonb_typeof(p_changes) <> 'object' THEN
    RAISE EXCEPTION 'network setting invalid: changes' USING ERRCODE = 'CN027';
  END IF;
  SELECT * INTO v_old FROM networks WHERE id = p_network FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB404';
  END IF;
  v_new := v_old;
  FOR v_key, v_value IN SELECT key, value FROM jsonb_each(p_changes) ORDER BY key LOOP
    IF jsonb_typeof(v_value) NOT IN ('string', 'number', 'boolean', 'null') THEN
      RAISE EXCEPTION 'network setting invalid: %', v_key USING ERRCODE = 'CN027';
    END IF;
    v_new := coffer_network_apply(v_new, v_key, v_value #>> '{}');
  END LOOP;
  PERFORM coffer_network_check(v_new, p_hot_address);
  IF coffer_network_json(v_old) = coffer_network_json(v_new) THEN
    RETURN false;
  END IF;
  UPDATE networks SET contract = v_new.contract, token_decimals = v_new.token_decimals, confirmations = v_new.confirmations,
         min_deposit = v_new.min_deposit, withdraw_fee = v_new.withdraw_fee, min_withdraw = v_new.min_withdraw,
         max_withdraw = v_new.max_withdraw, daily_withdraw_limit = v_new.daily_withdraw_limit,
         review_threshold = v_new.review_threshold, deposit_enabled = v_new.deposit_enabled,
         withdraw_enabled = v_new.withdraw_enabled, gas_price_cap_wei = v_new.gas_price_cap_wei,
         max_fee_bumps = v_new.max_fee_bumps, fee_margin_percent = v_new.fee_margin_percent,
         hot_ceiling = v_new.hot_ceiling, hot_floor = v_new.hot_floor, cold_address = v_new.cold_address,
         second_approval_above = v_new.second_approval_above, explorer_url = v_new.explorer_url,
         explorer_tx_url = v_new.explorer_tx_url
   WHERE id = p_network
  RETURNING * INTO v_new;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'network.update', 'network', p_network::text, p_reason,
    coffer_network_json(v_old), coffer_network_json(v_new));
  RETURN true;
END $function$

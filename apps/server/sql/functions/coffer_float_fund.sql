CREATE OR REPLACE FUNCTION public.coffer_float_fund(p_network integer, p_tx_hash text, p_amount numeric, p_reason text, p_actor text, p_actor_user bigint)
 RETURNS TABLE(f_id bigint, f_entry bigint, f_amount numeric, f_replayed boolean)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_currency integer;
  v_entry bigint;
  v_id bigint;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a funding needs a reason and an actor' USING ERRCODE = 'CB031';
  END IF;
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'a funding must be positive' USING ERRCODE = 'CB031';
  END IF;
  SELECT currency_id INTO v_currency FROM networks WHERE id = p_network;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB031';
  END IF;
  -- one funding per transaction: a second call answers the first booking
  PERFORM 1 FROM networks WHERE id = p_network FOR UPDATE;
  RETURN QUERY SELECT f.id, f.entry_id, f.amount, true FROM chain_fundings f
    WHERE f.network_id = p_network AND f.tx_hash = lower(p_tx_hash);
  IF FOUND THEN
    RETURN;
  END IF;
  v_entry := ledger_open_entry('float_fund', p_actor_user, NULL, NULL, btrim(p_reason));
  PERFORM ledger_post(v_entry, ARRAY[ledger_account(NULL, v_currency, 'world'), ledger_float_account(p_network)],
    ARRAY[-p_amount, p_amount]);
  INSERT INTO chain_fundings (network_id, tx_hash, amount, reason, actor, actor_user_id, entry_id)
  VALUES (p_network, lower(p_tx_hash), p_amount, btrim(p_reason), btrim(p_actor), p_actor_user, v_entry)
  RETURNING id INTO v_id;
  PERFORM coffer_operator_action(p_actor_user, btrim(p_actor), 'chain.fund', 'network', p_network::text, btrim(p_reason), NULL,
    jsonb_build_object('txHash', lower(p_tx_hash), 'amount', p_amount::text, 'entryId', v_entry));
  RETURN QUERY SELECT v_id, v_entry, p_amount, false;
END $function$

COMMENT ON FUNCTION public.coffer_float_fund IS 'The operator''s own coins sent to the hot wallet: world -> the network''s float, once per chain transaction (chain_fundings).';

CREATE OR REPLACE FUNCTION public.ledger_float_account(p_network integer)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM accounts WHERE network_id = p_network;
  IF v_id IS NOT NULL THEN
    RETURN v_id;
  END IF;
  INSERT INTO accounts (currency_id, user_id, kind, network_id, min_balance)
  SELECT n.currency_id, NULL, 'float', n.id, NULL FROM networks n WHERE n.id = p_network
  ON CONFLICT DO NOTHING RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM accounts WHERE network_id = p_network;
  END IF;
  IF v_id IS NULL THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB031';
  END IF;
  RETURN v_id;
END $function$

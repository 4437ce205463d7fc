CREATE OR REPLACE FUNCTION public.ledger_account(p_user bigint, p_currency integer, p_kind text)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id bigint;
BEGIN
  IF p_user IS NULL THEN
    SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND network_id IS NULL AND currency_id = p_currency AND kind = p_kind;
  ELSE
    SELECT id INTO v_id FROM accounts WHERE user_id = p_user AND currency_id = p_currency AND kind = p_kind;
  END IF;
  IF v_id IS NOT NULL THEN
    RETURN v_id;
  END IF;
  INSERT INTO accounts (currency_id, user_id, kind, min_balance)
  VALUES (p_currency, p_user, p_kind,
          CASE WHEN p_user IS NOT NULL OR p_kind IN ('fees', 'house') THEN 0 ELSE NULL END)
  ON CONFLICT DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    -- Lost a race with a concurrent creator: read the winner's row.
    IF p_user IS NULL THEN
      SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND network_id IS NULL AND currency_id = p_currency AND kind = p_kind;
    ELSE
      SELECT id INTO v_id FROM accounts WHERE user_id = p_user AND currency_id = p_currency AND kind = p_kind;
    END IF;
  END IF;
  RETURN v_id;
END $function$

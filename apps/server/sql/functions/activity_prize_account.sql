CREATE OR REPLACE FUNCTION public.activity_prize_account(p_currency integer)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND network_id IS NULL AND currency_id = p_currency AND kind = 'prizes';
  IF v_id IS NULL THEN
    INSERT INTO accounts (currency_id, user_id, kind, min_balance) VALUES (p_currency, NULL, 'prizes', 0)
    ON CONFLICT DO NOTHING;
    SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND network_id IS NULL AND currency_id = p_currency AND kind = 'prizes';
  END IF;
  RETURN v_id;
END $function$

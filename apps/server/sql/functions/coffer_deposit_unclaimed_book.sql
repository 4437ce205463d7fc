CREATE OR REPLACE FUNCTION public.coffer_deposit_unclaimed_book(p_deposit bigint)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_d deposits%ROWTYPE;
  v_entry bigint;
BEGIN
  SELECT * INTO v_d FROM deposits WHERE id = p_deposit FOR UPDATE;
  IF NOT FOUND OR v_d.status <> 'below_minimum' THEN
    RAISE EXCEPTION 'deposit % is not below the minimum', p_deposit USING ERRCODE = 'CB032';
  END IF;
  IF EXISTS (SELECT 1 FROM deposit_unclaimed WHERE deposit_id = p_deposit) THEN
    RETURN false;
  END IF;
  v_entry := ledger_open_entry('unclaimed_deposit', NULL, NULL, NULL, 'deposit ' || p_deposit || ' below the minimum');
  PERFORM ledger_post(v_entry, ARRAY[ledger_account(NULL, v_d.currency_id, 'world'), ledger_float_account(v_d.network_id)],
    ARRAY[-v_d.amount, v_d.amount]);
  INSERT INTO deposit_unclaimed (deposit_id, entry_id) VALUES (p_deposit, v_entry);
  RETURN true;
END $function$

COMMENT ON FUNCTION public.coffer_deposit_unclaimed_book IS 'A final deposit below the network''s minimum: world -> the network''s float, once, so custody and the ledger stay equal to the base unit (decision 038).';

CREATE OR REPLACE FUNCTION public.ledger_post(p_entry bigint, p_accounts bigint[], p_amounts numeric[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_n integer := coalesce(array_length(p_accounts, 1), 0);
  v_currency integer;
  v_currencies integer[] := '{}';
  v_user bigint;
  v_balance numeric;
  v_sum numeric;
BEGIN
  IF v_n < 2 OR v_n <> coalesce(array_length(p_amounts, 1), 0) THEN
    RAISE EXCEPTION 'ledger_post: entry % needs matching arrays of at least two postings', p_entry USING ERRCODE = 'CB900';
  END IF;
  PERFORM 1 FROM accounts WHERE id = ANY (p_accounts) ORDER BY id FOR UPDATE;
  FOR i IN 1..v_n LOOP
    IF p_amounts[i] IS NULL OR p_amounts[i] = 0 THEN
      RAISE EXCEPTION 'ledger_post: entry % has a zero or null posting', p_entry USING ERRCODE = 'CB900';
    END IF;
    UPDATE accounts SET balance = balance + p_amounts[i]
    WHERE id = p_accounts[i] AND (min_balance IS NULL OR balance + p_amounts[i] >= min_balance)
    RETURNING balance, currency_id INTO v_balance, v_currency;
    IF NOT FOUND THEN
      SELECT user_id INTO v_user FROM accounts WHERE id = p_accounts[i];
      IF NOT FOUND THEN
        RAISE EXCEPTION 'ledger_post: account % does not exist', p_accounts[i] USING ERRCODE = 'CB900';
      ELSIF v_user IS NULL THEN
        RAISE EXCEPTION 'ledger_post: system account % would pass its floor', p_accounts[i] USING ERRCODE = 'CB011';
      ELSE
        RAISE EXCEPTION 'ledger_post: account % has insufficient balance', p_accounts[i] USING ERRCODE = 'CB001';
      END IF;
    END IF;
    v_currencies := v_currencies || v_currency;
    INSERT INTO postings (entry_id, account_id, currency_id, amount, balance_after)
    VALUES (p_entry, p_accounts[i], v_currency, p_amounts[i], v_balance);
  END LOOP;
  -- Invariant: money is neither created nor destroyed, per currency.
  FOR i IN 1..v_n LOOP
    v_sum := 0;
    FOR j IN 1..v_n LOOP
      IF v_currencies[j] = v_currencies[i] THEN
        v_sum := v_sum + p_amounts[j];
      END IF;
    END LOOP;
    IF v_sum <> 0 THEN
      RAISE EXCEPTION 'ledger_post: entry % does not sum to zero', p_entry USING ERRCODE = 'CB900';
    END IF;
  END LOOP;
END $function$

COMMENT ON FUNCTION public.ledger_post IS 'The one writer of postings: two or more postings of one journal entry, each moving its account''s balance (refused below the account''s floor: CB001 for a user, CB011 for a system account such as the house) and recording balance_after; together they must sum to zero per currency (CB900). Every balance change in Coffer goes through here.';

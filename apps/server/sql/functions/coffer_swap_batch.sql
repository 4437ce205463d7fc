CREATE OR REPLACE FUNCTION public.coffer_swap_batch(p_users bigint[], p_keys text[], p_hashes text[], p_quotes bigint[], p_from_currencies integer[], p_to_currencies integer[], p_from_amounts numeric[], p_to_amounts numeric[], p_fees numeric[], p_fee_currencies integer[], p_rates numeric[], p_mid_rates numeric[], p_spread_bps integer[], p_fee_bps integer[])
 RETURNS TABLE(b_i integer, b_state text, swap_id bigint, replayed boolean, key_conflict boolean, s_entry bigint, s_created timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_n integer := coalesce(array_length(p_users, 1), 0);
  v_user_from bigint[] := '{}';
  v_house_from bigint[] := '{}';
  v_house_to bigint[] := '{}';
  v_user_to bigint[] := '{}';
  v_fees bigint[] := '{}';
  v_a bigint;
  v_b bigint;
  v_c bigint;
  v_d bigint;
  v_e bigint;
  v_state text;
BEGIN
  IF v_n > 50 THEN
    RAISE EXCEPTION 'coffer_swap_batch: % items, at most 50', v_n USING ERRCODE = 'CB900';
  END IF;
  IF v_n > 0 AND (
       coalesce(array_length(p_keys, 1), 0) <> v_n OR coalesce(array_length(p_hashes, 1), 0) <> v_n
    OR coalesce(array_length(p_quotes, 1), 0) <> v_n OR coalesce(array_length(p_from_currencies, 1), 0) <> v_n
    OR coalesce(array_length(p_to_currencies, 1), 0) <> v_n OR coalesce(array_length(p_from_amounts, 1), 0) <> v_n
    OR coalesce(array_length(p_to_amounts, 1), 0) <> v_n OR coalesce(array_length(p_fees, 1), 0) <> v_n
    OR coalesce(array_length(p_fee_currencies, 1), 0) <> v_n OR coalesce(array_length(p_rates, 1), 0) <> v_n
    OR coalesce(array_length(p_mid_rates, 1), 0) <> v_n OR coalesce(array_length(p_spread_bps, 1), 0) <> v_n
    OR coalesce(array_length(p_fee_bps, 1), 0) <> v_n) THEN
    RAISE EXCEPTION 'coffer_swap_batch: argument arrays of different lengths' USING ERRCODE = 'CB900';
  END IF;

  -- 1. The accounts of every item.
  FOR i IN 1..v_n LOOP
    v_a := NULL;
    v_b := NULL;
    v_c := NULL;
    v_d := NULL;
    v_e := NULL;
    IF p_users[i] IS NOT NULL AND p_from_currencies[i] <> p_to_currencies[i]
       AND p_fee_currencies[i] IN (p_from_currencies[i], p_to_currencies[i])
       AND EXISTS (SELECT 1 FROM users u WHERE u.id = p_users[i])
       AND (SELECT count(*) FROM currencies c WHERE c.id IN (p_from_currencies[i], p_to_currencies[i])) = 2 THEN
      v_a := ledger_account(p_users[i], p_from_currencies[i], 'available');
      v_b := swap_system_account(p_from_currencies[i], 'house');
      v_c := swap_system_account(p_to_currencies[i], 'house');
      v_d := ledger_account(p_users[i], p_to_currencies[i], 'available');
      IF p_fees[i] > 0 THEN
        v_e := swap_system_account(p_fee_currencies[i], 'fees');
      END IF;
    END IF;
    v_user_from := v_user_from || v_a;
    v_house_from := v_house_from || v_b;
    v_house_to := v_house_to || v_c;
    v_user_to := v_user_to || v_d;
    v_fees := v_fees || v_e;
  END LOOP;

  -- 2. All locks at once, in id order.
  PERFORM 1 FROM accounts WHERE id = ANY (v_user_from || v_house_from || v_house_to || v_user_to || v_fees)
  ORDER BY id FOR UPDATE;

  -- 3. Each swap on its own.
  FOR i IN 1..v_n LOOP
    BEGIN
      RETURN QUERY SELECT i, NULL::text, s.* FROM coffer_swap_apply(p_users[i], p_keys[i], p_hashes[i], p_quotes[i],
        p_from_currencies[i], p_to_currencies[i], p_from_amounts[i], p_to_amounts[i], p_fees[i], p_fee_currencies[i],
        p_rates[i], p_mid_rates[i], p_spread_bps[i], p_fee_bps[i],
        v_user_from[i], v_house_from[i], v_house_to[i], v_user_to[i], v_fees[i]) s;
    EXCEPTION WHEN OTHERS THEN
      v_state := SQLSTATE;
      IF p_keys[i] IS NOT NULL AND ledger_refusal_kept(v_state) THEN
        BEGIN
          v_state := ledger_keep_refusal('swap', p_users[i], p_keys[i], p_hashes[i], v_state);
        EXCEPTION WHEN OTHERS THEN
          v_state := SQLSTATE;
        END;
      END IF;
      RETURN QUERY SELECT i, v_state, NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint, NULL::timestamptz;
    END;
  END LOOP;
END $function$

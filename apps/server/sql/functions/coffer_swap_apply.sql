CREATE OR REPLACE FUNCTION public.coffer_swap_apply(p_user bigint, p_key text, p_hash text, p_quote bigint, p_from_currency integer, p_to_currency integer, p_from_amount numeric, p_to_amount numeric, p_fee numeric, p_fee_currency integer, p_rate numeric, p_mid_rate numeric, p_spread_bps integer, p_fee_bps integer, p_user_from_acc bigint, p_house_from_acc bigint, p_house_to_acc bigint, p_user_to_acc bigint, p_fees_acc bigint)
 RETURNS TABLE(swap_id bigint, replayed boolean, key_conflict boolean, s_entry bigint, s_created timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  v_entry bigint;
  v_kind text;
  v_hash text;
  v_refusal text;
  v_swap bigint;
  v_created timestamptz;
  v_accounts bigint[];
  v_amounts numeric[];
BEGIN
  -- What is received rounds down, the fee up, to each currency's display precision: the record
  -- says what the quote showed (docs/decisions/053-one-amount-one-reference.md).
  p_to_amount := coffer_round_places(p_to_amount, p_to_currency, false);
  p_fee := coffer_round_places(p_fee, p_fee_currency, true);
  IF p_user IS NULL OR p_from_currency = p_to_currency OR p_from_amount <= 0 OR p_to_amount <= 0
     OR p_fee < 0 OR p_fee_currency NOT IN (p_from_currency, p_to_currency)
     OR (p_fee_currency = p_from_currency AND p_fee >= p_from_amount) THEN
    RAISE EXCEPTION 'coffer_swap_apply: invalid arguments' USING ERRCODE = 'CB900';
  END IF;

  v_entry := ledger_open_entry('swap', p_user, p_key, p_hash, NULL);
  IF v_entry IS NULL THEN
    SELECT e.id, e.kind, e.request_hash, e.refusal INTO v_entry, v_kind, v_hash, v_refusal
    FROM journal_entries e WHERE e.user_id = p_user AND e.idempotency_key = p_key;
    IF v_refusal IS NOT NULL AND v_kind = 'swap' AND v_hash IS NOT DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % was refused (%)', p_key, v_refusal USING ERRCODE = v_refusal;
    END IF;
    SELECT s.id INTO v_swap FROM swaps s WHERE s.entry_id = v_entry;
    IF v_hash IS DISTINCT FROM p_hash OR v_swap IS NULL THEN
      RETURN QUERY SELECT NULL::bigint, true, true, NULL::bigint, NULL::timestamptz;
    ELSE
      RETURN QUERY SELECT v_swap, true, false, NULL::bigint, NULL::timestamptz;
    END IF;
    RETURN;
  END IF;

  IF p_quote IS NOT NULL THEN
    UPDATE swap_quotes q SET used_at = now()
    WHERE q.id = p_quote AND q.user_id = p_user AND q.used_at IS NULL AND q.expires_at > now()
      AND q.from_currency_id = p_from_currency AND q.to_currency_id = p_to_currency
      AND q.from_amount = p_from_amount AND q.to_amount = p_to_amount AND q.fee = p_fee
      AND q.fee_currency_id = p_fee_currency;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'coffer_swap_apply: quote % is expired, used or does not match', p_quote USING ERRCODE = 'CB006';
    END IF;
  END IF;

  -- user(from) -> house(from), house(to) -> user(to); the fee is a separate posting to the
  -- fees account, taken from whichever side the pair's policy names.
  v_accounts := ARRAY[
    coalesce(p_user_from_acc, ledger_account(p_user, p_from_currency, 'available')),
    coalesce(p_house_from_acc, swap_system_account(p_from_currency, 'house')),
    coalesce(p_house_to_acc, swap_system_account(p_to_currency, 'house')),
    coalesce(p_user_to_acc, ledger_account(p_user, p_to_currency, 'available'))
  ];
  IF p_fee_currency = p_to_currency THEN
    v_amounts := ARRAY[-p_from_amount, p_from_amount, -(p_to_amount + p_fee), p_to_amount];
  ELSE
    v_amounts := ARRAY[-p_from_amount, p_from_amount - p_fee, -p_to_amount, p_to_amount];
  END IF;
  IF p_fee > 0 THEN
    v_accounts := v_accounts || coalesce(p_fees_acc, swap_system_account(p_fee_currency, 'fees'));
    v_amounts := v_amounts || p_fee;
  END IF;
  PERFORM ledger_post(v_entry, v_accounts, v_amounts);

  INSERT INTO swaps (entry_id, user_id, quote_id, from_currency_id, to_currency_id, from_amount, to_amount,
                     rate, mid_rate, spread_bps, fee_bps, fee, fee_currency_id)
  VALUES (v_entry, p_user, p_quote, p_from_currency, p_to_currency, p_from_amount, p_to_amount,
          p_rate, p_mid_rate, p_spread_bps, p_fee_bps, p_fee, p_fee_currency)
  RETURNING id, created_at INTO v_swap, v_created;
  RETURN QUERY SELECT v_swap, false, false, v_entry, v_created;
END $function$

COMMENT ON FUNCTION public.coffer_swap_apply IS 'One swap against the house at a quoted rate: user (from) -> house (from), house (to) -> user (to), the fee a separate posting to the fees account; amounts at each currency''s display precision, rounded toward the house (decision 053); the house account''s floor is its limit (HOUSE_LIMITS).';

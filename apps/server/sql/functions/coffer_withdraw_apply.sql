CREATE OR REPLACE FUNCTION public.coffer_withdraw_apply(p_user bigint, p_network integer, p_address text, p_amount numeric, p_memo text, p_key text, p_hash text, p_quote bigint)
 RETURNS TABLE(w_id bigint, w_replayed boolean)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_net networks%ROWTYPE;
  v_entry bigint;
  v_kind text;
  v_hash text;
  v_refusal text;
  v_id bigint;
  v_decimals integer;
  v_today numeric;
  v_total numeric;
  v_available bigint;
  v_quote withdrawal_fee_quotes%ROWTYPE;
BEGIN
  v_entry := ledger_open_entry('withdraw_hold', p_user, p_key, p_hash, p_memo);
  IF v_entry IS NULL THEN
    SELECT e.id, e.kind, e.request_hash, e.refusal INTO v_entry, v_kind, v_hash, v_refusal
    FROM journal_entries e WHERE e.user_id = p_user AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash OR (v_refusal IS NOT NULL AND v_kind <> 'withdraw_hold') THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    IF v_refusal IS NOT NULL THEN
      RAISE EXCEPTION 'idempotency key % was refused (%)', p_key, v_refusal USING ERRCODE = v_refusal;
    END IF;
    RETURN QUERY SELECT we.withdrawal_id, true FROM withdrawal_entries we WHERE we.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;

  SELECT * INTO v_net FROM networks WHERE id = p_network;
  IF NOT FOUND OR NOT v_net.withdraw_enabled OR NOT (v_net.native OR v_net.contract IS NOT NULL) THEN
    RAISE EXCEPTION 'network % is unavailable', p_network USING ERRCODE = 'CB003';
  END IF;
  IF chain_payouts_frozen(p_network) THEN
    RAISE EXCEPTION 'payouts on network % are frozen', p_network USING ERRCODE = 'CB012';
  END IF;
  -- The fee is the quote's (docs/decisions/040): this user's, this network's, unused and
  -- unexpired, locked here so two requests cannot both spend it.
  SELECT * INTO v_quote FROM withdrawal_fee_quotes q WHERE q.id = p_quote FOR UPDATE;
  IF NOT FOUND OR v_quote.user_id <> p_user THEN
    RAISE EXCEPTION 'fee quote % is unknown', p_quote USING ERRCODE = 'CB021';
  END IF;
  IF v_quote.network_id <> p_network THEN
    RAISE EXCEPTION 'fee quote % is for another network', p_quote USING ERRCODE = 'CB022';
  END IF;
  IF v_quote.used_at IS NOT NULL THEN
    RAISE EXCEPTION 'fee quote % was used', p_quote USING ERRCODE = 'CB020';
  END IF;
  IF v_quote.expires_at <= now() THEN
    RAISE EXCEPTION 'fee quote % expired', p_quote USING ERRCODE = 'CB019';
  END IF;
  v_decimals := coffer_check_amount(v_net.currency_id, p_amount, true, false);
  IF p_amount <> round(p_amount, least(v_decimals, v_net.token_decimals))
     OR p_amount < v_net.min_withdraw OR p_amount > v_net.max_withdraw THEN
    RAISE EXCEPTION 'amount % is out of range for network %', p_amount, p_network USING ERRCODE = 'CB002';
  END IF;
  -- The daily limit counts every withdrawal of this UTC day that was not given back.
  -- The user's rows are serialized by the lock on their available account below.
  v_available := ledger_account(p_user, v_net.currency_id, 'available');
  PERFORM 1 FROM accounts WHERE id = v_available FOR UPDATE;
  SELECT coalesce(sum(w.amount), 0) INTO v_today FROM withdrawals w
  WHERE w.user_id = p_user AND w.network_id = p_network
    AND w.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND w.status NOT IN ('failed', 'cancelled', 'rejected');
  IF v_today + p_amount > v_net.daily_withdraw_limit THEN
    RAISE EXCEPTION 'daily withdrawal limit of network % exceeded', p_network USING ERRCODE = 'CB009';
  END IF;

  v_total := p_amount + v_quote.fee;
  PERFORM ledger_post(v_entry,
    ARRAY[v_available, ledger_account(p_user, v_net.currency_id, 'frozen')],
    ARRAY[-v_total, v_total]);
  INSERT INTO withdrawals (user_id, network_id, currency_id, address, amount, fee, memo, status)
  VALUES (p_user, p_network, v_net.currency_id, p_address, p_amount, v_quote.fee, p_memo,
          CASE WHEN v_net.review_threshold IS NOT NULL AND p_amount >= v_net.review_threshold THEN 'review' ELSE 'queued' END)
  RETURNING id INTO v_id;
  INSERT INTO withdrawal_entries (withdrawal_id, entry_id, kind) VALUES (v_id, v_entry, 'withdraw_hold');
  UPDATE withdrawal_fee_quotes SET used_at = now(), withdrawal_id = v_id WHERE id = v_quote.id;
  RETURN QUERY SELECT v_id, false;
END $function$

COMMENT ON FUNCTION public.coffer_withdraw_apply IS 'Spends the fee quote (this user''s, this network''s, unused, not expired: decision 040), checks the day''s total against the network''s limit, holds amount + fee (available -> frozen) and creates the row in review (at or above the network''s threshold) or queued; the hold entry''s id is the withdrawal''s reference everywhere (decision 059).';

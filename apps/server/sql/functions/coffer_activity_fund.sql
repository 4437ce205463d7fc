CREATE OR REPLACE FUNCTION public.coffer_activity_fund(p_activity bigint, p_amount numeric, p_actor_user_id bigint, p_actor text, p_reason text, p_key text, p_hash text)
 RETURNS TABLE(f_entry bigint, f_amount numeric, f_replayed boolean)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_act activities%ROWTYPE;
  v_entry bigint;
  v_hash text;
  v_before numeric;
BEGIN
  SELECT * INTO v_act FROM activities WHERE id = p_activity FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity % not found', p_activity USING ERRCODE = 'CBA04';
  END IF;
  v_entry := ledger_open_entry('activity_fund', p_actor_user_id, p_key, p_hash, 'activity ' || p_activity);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash FROM journal_entries e
    WHERE e.user_id IS NOT DISTINCT FROM p_actor_user_id AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN QUERY SELECT f.entry_id, f.amount, true FROM activity_fundings f WHERE f.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;
  IF v_act.settled_at IS NOT NULL THEN
    RAISE EXCEPTION 'activity % is settled', p_activity USING ERRCODE = 'CBA21';
  END IF;
  PERFORM coffer_check_amount(v_act.prize_currency_id, p_amount, false, false);
  v_before := activity_funded(p_activity);
  PERFORM ledger_post(v_entry,
    ARRAY[ledger_account(NULL, v_act.prize_currency_id, 'adjustments'), activity_prize_account(v_act.prize_currency_id)],
    ARRAY[-p_amount, p_amount]);
  INSERT INTO activity_fundings (activity_id, entry_id, amount, actor, actor_user_id, reason)
  VALUES (p_activity, v_entry, p_amount, p_actor, p_actor_user_id, p_reason);
  PERFORM coffer_operator_action(p_actor_user_id, p_actor, 'activity.fund', 'activity', p_activity::text, p_reason,
    jsonb_build_object('funded', trim_scale(v_before)::text),
    jsonb_build_object('funded', trim_scale(v_before + p_amount)::text, 'amount', trim_scale(p_amount)::text, 'entryId', v_entry));
  RETURN QUERY SELECT v_entry, p_amount, false;
END $function$

COMMENT ON FUNCTION public.coffer_activity_fund IS 'Funds an activity''s prize pool (adjustments -> the currency''s prize account), once per idempotency key, recorded as an operator action.';

CREATE OR REPLACE FUNCTION public.coffer_activity_pay_next(p_activity bigint)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_act activities%ROWTYPE;
  v_win activity_winners%ROWTYPE;
  v_code text;
  v_entry bigint;
  v_notice bigint;
  v_amount text;
BEGIN
  SELECT * INTO v_act FROM activities WHERE id = p_activity FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity % not found', p_activity USING ERRCODE = 'CBA04';
  END IF;
  IF v_act.settled_at IS NULL OR v_act.paid_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  SELECT * INTO v_win FROM activity_winners
  WHERE activity_id = p_activity AND entry_id IS NULL ORDER BY rank LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    UPDATE activities SET paid_at = now() WHERE id = p_activity;
    RETURN NULL;
  END IF;
  SELECT code INTO v_code FROM currencies WHERE id = v_act.prize_currency_id;
  v_amount := trim_scale(v_win.amount)::text;
  v_entry := ledger_open_entry('activity_prize', v_win.user_id, NULL, NULL,
    'activity ' || p_activity || ' rank ' || v_win.rank);
  PERFORM ledger_post(v_entry,
    ARRAY[activity_prize_account(v_act.prize_currency_id), ledger_account(v_win.user_id, v_act.prize_currency_id, 'available')],
    ARRAY[-v_win.amount, v_win.amount]);
  v_notice := coffer_notice_to_user(v_win.user_id, 'activity_prize',
    '活动奖励已到账', 'Activity prize received',
    format('您在活动「%s」中获得第 %s 名，奖励 %s %s 已存入您的可用余额。', v_act.title_zh, v_win.rank, v_amount, v_code),
    format('You ranked #%s in "%s". Your prize of %s %s has been added to your available balance.', v_win.rank, v_act.title_en, v_amount, v_code),
    'activity:' || p_activity || ':prize:' || v_win.user_id);
  UPDATE activity_winners SET entry_id = v_entry, notice_id = v_notice, paid_at = now() WHERE id = v_win.id;
  IF NOT EXISTS (SELECT 1 FROM activity_winners WHERE activity_id = p_activity AND entry_id IS NULL) THEN
    UPDATE activities SET paid_at = now() WHERE id = p_activity;
  END IF;
  RETURN v_win.rank;
END $function$

COMMENT ON FUNCTION public.coffer_activity_pay_next IS 'Pays the next unpaid winner of a settled activity from its prize pool (prizes -> the winner''s available), one at a time so that several server processes may run the payouts at once without paying twice.';

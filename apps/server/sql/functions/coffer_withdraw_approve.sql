CREATE OR REPLACE FUNCTION public.coffer_withdraw_approve(p_withdrawal bigint, p_actor bigint, p_actor_email text, p_reason text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_w withdrawals%ROWTYPE;
  v_above numeric;
BEGIN
  IF p_actor IS NULL OR p_reason IS NULL OR btrim(p_reason) = '' THEN
    RAISE EXCEPTION 'an approval needs an operator and a reason' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_w FROM withdrawals WHERE id = p_withdrawal FOR UPDATE;
  IF NOT FOUND OR v_w.status <> 'review' THEN
    RAISE EXCEPTION 'withdrawal % is not waiting for review', p_withdrawal USING ERRCODE = 'CB007';
  END IF;
  IF v_w.first_approved_by IS NOT NULL THEN
    -- once a first approval is recorded the withdrawal needs a second operator, whatever the
    -- threshold says now
    IF v_w.first_approved_by = p_actor THEN
      RAISE EXCEPTION 'withdrawal % needs a second, different operator', p_withdrawal USING ERRCODE = 'CB041';
    END IF;
  ELSE
    SELECT second_approval_above INTO v_above FROM networks WHERE id = v_w.network_id;
    IF v_above IS NOT NULL AND v_w.amount > v_above THEN
      UPDATE withdrawals SET first_approved_by = p_actor, first_approved_by_email = p_actor_email, first_approved_at = now(),
             first_approval_reason = p_reason, updated_at = now()
       WHERE id = p_withdrawal;
      RETURN 'first';
    END IF;
  END IF;
  UPDATE withdrawals SET status = 'queued', reason = p_reason, reviewed_by = p_actor, updated_at = now() WHERE id = p_withdrawal;
  INSERT INTO user_events (user_id, type, ref_id, status) VALUES (v_w.user_id, 'withdraw', p_withdrawal, 'queued');
  RETURN 'queued';
END $function$

CREATE OR REPLACE FUNCTION public.coffer_withdraw_refund(p_withdrawal bigint, p_status text, p_reason text, p_from text[], p_actor bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_w withdrawals%ROWTYPE;
  v_entry bigint;
BEGIN
  IF p_status NOT IN ('cancelled', 'rejected', 'failed') THEN
    RAISE EXCEPTION 'coffer_withdraw_refund: % is not a refund state', p_status USING ERRCODE = 'CB900';
  END IF;
  SELECT * INTO v_w FROM withdrawals WHERE id = p_withdrawal FOR UPDATE;
  IF NOT FOUND OR NOT (v_w.status = ANY (p_from)) THEN
    RAISE EXCEPTION 'withdrawal % is not in a state that allows %', p_withdrawal, p_status USING ERRCODE = 'CB007';
  END IF;
  v_entry := ledger_open_entry('withdraw_refund', v_w.user_id, NULL, NULL, NULL);
  PERFORM ledger_post(v_entry,
    ARRAY[ledger_account(v_w.user_id, v_w.currency_id, 'frozen'), ledger_account(v_w.user_id, v_w.currency_id, 'available')],
    ARRAY[-(v_w.amount + v_w.fee), v_w.amount + v_w.fee]);
  INSERT INTO withdrawal_entries (withdrawal_id, entry_id, kind) VALUES (p_withdrawal, v_entry, 'withdraw_refund');
  UPDATE withdrawals SET status = p_status, reason = p_reason, updated_at = now(), completed_at = now(),
    reviewed_by = CASE WHEN p_status = 'rejected' THEN p_actor ELSE reviewed_by END
  WHERE id = p_withdrawal;
  INSERT INTO user_events (user_id, type, ref_id, status) VALUES (v_w.user_id, 'withdraw', p_withdrawal, p_status);
END $function$

COMMENT ON FUNCTION public.coffer_withdraw_refund IS 'A withdrawal that will not be paid (rejected, cancelled, failed): frozen -> available for amount + fee, once, from the statuses the caller names.';

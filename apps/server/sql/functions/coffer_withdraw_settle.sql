CREATE OR REPLACE FUNCTION public.coffer_withdraw_settle(p_withdrawal bigint, p_tx_hash text, p_block bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_w withdrawals%ROWTYPE;
  v_entry bigint;
BEGIN
  SELECT * INTO v_w FROM withdrawals WHERE id = p_withdrawal FOR UPDATE;
  IF NOT FOUND OR v_w.status NOT IN ('broadcast', 'confirming') THEN
    RAISE EXCEPTION 'withdrawal % cannot settle from its state', p_withdrawal USING ERRCODE = 'CB007';
  END IF;
  v_entry := ledger_open_entry('withdraw_settle', v_w.user_id, NULL, NULL, NULL);
  IF v_w.fee > 0 THEN
    PERFORM ledger_post(v_entry,
      ARRAY[ledger_account(v_w.user_id, v_w.currency_id, 'frozen'), ledger_account(NULL, v_w.currency_id, 'world'),
            ledger_account(NULL, v_w.currency_id, 'fees')],
      ARRAY[-(v_w.amount + v_w.fee), v_w.amount, v_w.fee]);
  ELSE
    PERFORM ledger_post(v_entry,
      ARRAY[ledger_account(v_w.user_id, v_w.currency_id, 'frozen'), ledger_account(NULL, v_w.currency_id, 'world')],
      ARRAY[-v_w.amount, v_w.amount]);
  END IF;
  INSERT INTO withdrawal_entries (withdrawal_id, entry_id, kind) VALUES (p_withdrawal, v_entry, 'withdraw_settle');
  UPDATE withdrawals SET status = 'completed', tx_hash = p_tx_hash, block_number = p_block, updated_at = now(), completed_at = now()
  WHERE id = p_withdrawal;
  INSERT INTO user_events (user_id, type, ref_id, status) VALUES (v_w.user_id, 'withdraw', p_withdrawal, 'completed');
END $function$

COMMENT ON FUNCTION public.coffer_withdraw_settle IS 'A withdrawal paid on chain and final: frozen -> world for the amount, frozen -> fees for the fee, once (the row must be broadcast or confirming).';

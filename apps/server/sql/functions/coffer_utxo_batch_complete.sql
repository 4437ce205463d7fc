CREATE OR REPLACE FUNCTION public.coffer_utxo_batch_complete(p_batch bigint, p_tx bigint, p_block bigint, p_block_hash text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_b utxo_batches%ROWTYPE;
  v_t utxo_batch_txs%ROWTYPE;
  v_net networks%ROWTYPE;
  v_paid bigint;
  v_fee numeric;
  v_entry bigint;
  v_w record;
BEGIN
  SELECT * INTO v_b FROM utxo_batches WHERE id = p_batch FOR UPDATE;
  IF NOT FOUND OR v_b.status <> 'confirming' THEN
    RETURN false;
  END IF;
  SELECT * INTO v_t FROM utxo_batch_txs WHERE id = p_tx AND batch_id = p_batch;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'attempt % is not of batch %', p_tx, p_batch USING ERRCODE = 'CB032';
  END IF;
  SELECT * INTO v_net FROM networks WHERE id = v_b.network_id;
  SELECT coalesce(sum((w.amount * power(10::numeric, v_net.token_decimals))::bigint), 0) INTO v_paid
    FROM withdrawals w WHERE w.batch_id = p_batch;
  -- the invariant of every attempt: inputs = payouts + change + miner fee
  IF v_paid <> v_b.payout_total OR v_b.input_total <> v_b.payout_total + v_t.change_value + v_t.fee THEN
    RAISE EXCEPTION 'batch % does not add up', p_batch USING ERRCODE = 'CB032';
  END IF;
  FOR v_w IN SELECT id FROM withdrawals WHERE batch_id = p_batch ORDER BY id LOOP
    PERFORM coffer_withdraw_settle(v_w.id, v_t.tx_hash, p_block);
  END LOOP;
  v_fee := v_t.fee / power(10::numeric, v_net.token_decimals);
  v_entry := ledger_open_entry('miner_fee', NULL, NULL, NULL, 'miner fee of payout batch ' || p_batch || ' ' || v_t.tx_hash);
  PERFORM ledger_post(v_entry, ARRAY[ledger_float_account(v_net.id), ledger_account(NULL, v_net.currency_id, 'world')],
    ARRAY[-v_fee, v_fee]);
  INSERT INTO utxo_fees (batch_id, network_id, amount, block_number, entry_id) VALUES (p_batch, v_net.id, v_fee, p_block, v_entry);
  UPDATE utxo_outputs SET state = 'spent', spent_by = v_t.tx_hash, updated_at = now() WHERE batch_id = p_batch AND state = 'reserved';
  IF v_t.change_value > 0 THEN
    -- the change is the transaction's last output (payout_tx.ts builds it so)
    INSERT INTO utxo_outputs (network_id, txid, vout, value, address, key_branch, key_index, block_hash, block_number)
    VALUES (v_net.id, v_t.tx_hash, (SELECT count(*) FROM withdrawals WHERE batch_id = p_batch), v_t.change_value,
            v_b.change_address, 1, p_batch, p_block_hash, p_block);
  END IF;
  UPDATE utxo_batch_txs SET status = CASE WHEN id = p_tx THEN 'mined' ELSE 'replaced' END WHERE batch_id = p_batch;
  UPDATE utxo_batches SET status = 'completed', tx_hash = v_t.tx_hash, block_number = p_block, block_hash = p_block_hash,
         miner_fee = v_t.fee, wait_reason = NULL, updated_at = now(), completed_at = now()
   WHERE id = p_batch;
  RETURN true;
END $function$

COMMENT ON FUNCTION public.coffer_utxo_batch_complete IS 'A UTXO payout batch whose mined attempt is N deep: checks inputs = payouts + change + miner fee, settles each withdrawal, marks the inputs spent, records the change output and books the miner fee float -> world, in one transaction (decision 051).';

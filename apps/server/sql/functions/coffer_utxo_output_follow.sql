CREATE OR REPLACE FUNCTION public.coffer_utxo_output_follow()
 RETURNS trigger
 LANGUAGE plpgsql
 SET enable_hashjoin TO 'on'
 SET enable_seqscan TO 'on'
AS $function$
BEGIN
  INSERT INTO utxo_outputs (network_id, txid, vout, value, address, deposit_id, block_hash, block_number)
  SELECT d.network_id, d.tx_hash, d.log_index, (d.amount * power(10::numeric, n.token_decimals))::bigint,
         d.address, d.id, d.block_hash, d.block_number
  FROM new_rows d JOIN networks n ON n.id = d.network_id AND n.family = 'utxo' JOIN old_rows o ON o.id = d.id
  WHERE d.status = 'credited' AND o.status IS DISTINCT FROM d.status
  ON CONFLICT (network_id, txid, vout) DO UPDATE
    SET deposit_id = excluded.deposit_id, block_hash = excluded.block_hash, block_number = excluded.block_number, updated_at = now();
  DELETE FROM utxo_outputs u USING new_rows d JOIN old_rows o ON o.id = d.id
  WHERE u.deposit_id = d.id AND u.state = 'available'
    AND d.status IN ('dropped', 'reorged_after_credit') AND o.status IS DISTINCT FROM d.status;
  RETURN NULL;
END $function$

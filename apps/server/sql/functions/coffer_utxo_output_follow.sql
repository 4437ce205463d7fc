CREATE OR REPLACE FUNCTION public.coffer_utxo_output_follow()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.status = 'credited' THEN
    INSERT INTO utxo_outputs (network_id, txid, vout, value, address, deposit_id, block_hash, block_number)
    SELECT NEW.network_id, NEW.tx_hash, NEW.log_index, (NEW.amount * power(10::numeric, n.token_decimals))::bigint,
           NEW.address, NEW.id, NEW.block_hash, NEW.block_number
    FROM networks n WHERE n.id = NEW.network_id AND n.family = 'utxo'
    ON CONFLICT (network_id, txid, vout) DO UPDATE
      SET deposit_id = excluded.deposit_id, block_hash = excluded.block_hash, block_number = excluded.block_number, updated_at = now();
  ELSIF NEW.status IN ('dropped', 'reorged_after_credit') THEN
    DELETE FROM utxo_outputs WHERE deposit_id = NEW.id AND state = 'available';
  END IF;
  RETURN NULL;
END $function$

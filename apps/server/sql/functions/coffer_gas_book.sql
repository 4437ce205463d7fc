CREATE OR REPLACE FUNCTION public.coffer_gas_book(p_chain_tx bigint, p_gas_used numeric, p_gas_price numeric, p_block bigint)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_tx chain_txs%ROWTYPE;
  v_net networks%ROWTYPE;
  v_amount numeric;
  v_entry bigint;
BEGIN
  SELECT * INTO v_tx FROM chain_txs WHERE id = p_chain_tx FOR UPDATE;
  IF NOT FOUND OR v_tx.status = 'replaced' THEN
    RAISE EXCEPTION 'chain transaction % was replaced', p_chain_tx USING ERRCODE = 'CB032';
  END IF;
  IF EXISTS (SELECT 1 FROM chain_gas WHERE chain_tx_id = p_chain_tx) THEN
    RETURN false;
  END IF;
  SELECT * INTO v_net FROM networks WHERE chain_id = v_tx.chain_id AND native ORDER BY id LIMIT 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no native network on chain %', v_tx.chain_id USING ERRCODE = 'CB032';
  END IF;
  IF p_gas_used IS NULL OR p_gas_used <= 0 OR p_gas_price IS NULL OR p_gas_price < 0 THEN
    RAISE EXCEPTION 'gas of chain transaction % must be positive', p_chain_tx USING ERRCODE = 'CB032';
  END IF;
  v_amount := p_gas_used * p_gas_price / (10::numeric ^ v_net.token_decimals);
  IF v_amount = 0 THEN
    RETURN false;
  END IF;
  v_entry := ledger_open_entry('gas', NULL, NULL, NULL, 'gas of ' || v_tx.purpose || ' ' || v_tx.tx_hash);
  PERFORM ledger_post(v_entry, ARRAY[ledger_float_account(v_net.id), ledger_account(NULL, v_net.currency_id, 'world')],
    ARRAY[-v_amount, v_amount]);
  INSERT INTO chain_gas (chain_tx_id, network_id, gas_used, gas_price, amount, block_number, entry_id)
  VALUES (p_chain_tx, v_net.id, p_gas_used, p_gas_price, v_amount, p_block, v_entry);
  RETURN true;
END $function$

COMMENT ON FUNCTION public.coffer_gas_book IS 'The gas of a mined, final chain transaction Coffer signed: the network''s float -> world, once per transaction (chain_gas), so the ledger follows the hot wallet to the wei (decision 038).';

CREATE OR REPLACE FUNCTION public.coffer_deposit_record_chunk(p_chain integer, p_network integer[], p_currency integer[], p_user bigint[], p_address text[], p_from text[], p_tx text[], p_log integer[], p_block bigint[], p_block_hash text[], p_amount numeric[], p_heights bigint[], p_hashes text[], p_parents text[], p_prune_below bigint, p_to bigint, p_to_hash text, p_recheck boolean, p_credit boolean)
 RETURNS TABLE(r_inserted integer, r_credited integer)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_inserted integer;
  v_credited integer := 0;
BEGIN
  WITH incoming AS (
    SELECT * FROM unnest(p_network, p_currency, p_user, p_address, p_from, p_tx, p_log, p_block, p_block_hash, p_amount)
      AS x(network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
  ), fresh AS (
    -- A token Transfer's log index is its position in the block: a transaction that a reorg
    -- removed and that is mined again elsewhere comes back under another index. Events not
    -- yet recorded under their own key are paired (by order within the transaction) with
    -- the rows the reorg left behind for the same transfer (same tx, recipient and amount),
    -- so they take that row over instead of becoming a second deposit (credited twice).
    SELECT i.*, row_number() OVER (PARTITION BY i.network_id, i.tx_hash, lower(i.address), i.amount ORDER BY i.log_index) AS k
    FROM incoming i
    WHERE NOT EXISTS (SELECT 1 FROM deposits e WHERE e.network_id = i.network_id AND e.tx_hash = i.tx_hash AND e.log_index = i.log_index)
  ), orphans AS (
    -- Driven by the fresh events' transactions (an index probe each), not by a scan of deposits.
    SELECT d.id, d.network_id, d.tx_hash, lower(d.address) AS address, d.amount,
           row_number() OVER (PARTITION BY d.network_id, d.tx_hash, lower(d.address), d.amount ORDER BY d.log_index) AS k
    FROM (SELECT DISTINCT network_id, tx_hash FROM fresh) t
    JOIN deposits d ON d.network_id = t.network_id AND d.tx_hash = t.tx_hash
    WHERE d.status IN ('dropped', 'reorged_after_credit')
      AND NOT EXISTS (SELECT 1 FROM incoming i WHERE i.network_id = d.network_id AND i.tx_hash = d.tx_hash AND i.log_index = d.log_index)
  ), moved AS (
    UPDATE deposits d SET log_index = f.log_index, block_number = f.block_number, block_hash = f.block_hash, updated_at = now(),
           status = CASE WHEN d.status = 'dropped' THEN CASE WHEN f.amount < n.min_deposit THEN 'below_minimum' ELSE 'pending' END
                         ELSE d.status END
    FROM orphans o
    JOIN fresh f ON f.network_id = o.network_id AND f.tx_hash = o.tx_hash AND lower(f.address) = o.address AND f.amount = o.amount
                AND f.k = o.k
    JOIN networks n ON n.id = f.network_id
    WHERE d.id = o.id
    RETURNING d.id, d.user_id, d.status, d.network_id, d.tx_hash, d.log_index
  ), upserted AS (
    INSERT INTO deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number,
                          block_hash, amount, status)
    SELECT i.network_id, i.currency_id, i.user_id, i.address, i.from_address, i.tx_hash, i.log_index, i.block_number,
           i.block_hash, i.amount,
           CASE WHEN i.amount < n.min_deposit THEN 'below_minimum' ELSE 'pending' END
    FROM incoming i JOIN networks n ON n.id = i.network_id
    -- The hot wallet's gas top-ups to deposit addresses are custody moves, not deposits
    -- (they are recorded in chain_txs before they are broadcast).
    WHERE NOT EXISTS (SELECT 1 FROM chain_txs t WHERE t.chain_id = p_chain AND t.tx_hash = i.tx_hash AND t.purpose = 'gas_topup')
      AND NOT EXISTS (SELECT 1 FROM moved m WHERE m.network_id = i.network_id AND m.tx_hash = i.tx_hash AND m.log_index = i.log_index)
    ON CONFLICT (network_id, tx_hash, log_index) DO UPDATE
      SET block_number = excluded.block_number, block_hash = excluded.block_hash, updated_at = now(),
          -- dropped by a reorg, or seen unconfirmed in a UTXO mempool (decision 056): mined now
          status = CASE WHEN deposits.status IN ('dropped', 'unconfirmed') THEN excluded.status ELSE deposits.status END
    RETURNING id, user_id, status, xmax = 0 AS inserted
  ), events AS (
    INSERT INTO user_events (user_id, type, ref_id, status)
    SELECT user_id, 'deposit', id, status FROM upserted WHERE inserted OR NOT p_recheck
    UNION ALL SELECT user_id, 'deposit', id, status FROM moved
  ), blocks AS (
    INSERT INTO chain_blocks (chain_id, block_number, block_hash, parent_hash)
    SELECT p_chain, b, h, p FROM unnest(p_heights, p_hashes, p_parents) AS y(b, h, p)
    ON CONFLICT (chain_id, block_number) DO UPDATE SET block_hash = excluded.block_hash, parent_hash = excluded.parent_hash
  ), pruned AS (
    DELETE FROM chain_blocks WHERE chain_id = p_chain AND block_number < p_prune_below
  )
  UPDATE chain_cursors
  SET block_number = CASE WHEN p_recheck THEN block_number ELSE p_to END,
      block_hash = CASE WHEN p_recheck THEN block_hash ELSE p_to_hash END,
      rechecked_block = CASE WHEN p_recheck THEN greatest(rechecked_block, p_to) ELSE rechecked_block END,
      updated_at = now()
  WHERE chain_id = p_chain
  RETURNING (SELECT count(*) FROM upserted WHERE inserted)::int INTO v_inserted;
  IF p_credit THEN
    SELECT count(*)::int INTO v_credited FROM coffer_deposit_credit_due(p_chain, p_to);
  END IF;
  RETURN QUERY SELECT coalesce(v_inserted, 0), v_credited;
END $function$

COMMENT ON FUNCTION public.coffer_deposit_record_chunk IS 'Records one scanned chunk of a chain (deposits upserted, reorg orphans taken over, events, block hashes, the cursor) and credits what is due at its last block, in one call and one transaction (decision 052): the cursor never moves without the deposits below it.';

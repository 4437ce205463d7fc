-- The deposit watcher records and credits a chunk in one call (docs/decisions/052-watcher-chunk-call.md).
-- coffer_deposit_credit_due: the same credits, set-based throughout (the users' accounts are
-- created in one statement, not one ledger_account call each; arrays instead of a temporary
-- table made and dropped per call). coffer_deposit_record_chunk: the record statement the
-- watcher sent (decision 011), then the credit at the chunk's last block, in one transaction.

-- Credits, exactly once, every pending deposit of a chain that has its N confirmations at
-- p_height and still sits in the block the watcher has on record: world -> user available,
-- one journal entry per deposit. Set-based (a watcher catching up credits hundreds at once):
-- the deposit rows and all their accounts are locked (accounts in id order), each account's
-- postings carry its running balance in id order, and every entry must sum to zero. A
-- deposit already credited is not pending, so a second call (restart, second watcher)
-- credits nothing. Returns the credited deposits. Lookups are by key (index probes) and the
-- plans are kept generic: a plan made while the tables were small must not scan them later
-- (as coffer_transfer_batch).
CREATE OR REPLACE FUNCTION coffer_deposit_credit_due(p_chain integer, p_height bigint)
RETURNS TABLE (c_id bigint) LANGUAGE plpgsql
SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  v_ids bigint[];
  v_users bigint[];
  v_currencies integer[];
  v_amounts numeric[];
  v_entries bigint[];
  v_world_cur integer[];
  v_world_acc bigint[];
  v_world bigint[];
  v_user_acc bigint[];
  v_unbalanced integer;
BEGIN
  SELECT array_agg(d.id ORDER BY d.id), array_agg(d.user_id ORDER BY d.id), array_agg(d.currency_id ORDER BY d.id),
         array_agg(d.amount ORDER BY d.id)
  INTO v_ids, v_users, v_currencies, v_amounts FROM (
    SELECT d.id, d.user_id, d.currency_id, d.amount FROM networks n
    JOIN deposits d ON d.network_id = n.id AND d.status = 'pending' AND p_height - d.block_number + 1 >= n.confirmations
    LEFT JOIN chain_blocks b ON b.chain_id = n.chain_id AND b.block_number = d.block_number
    WHERE n.chain_id = p_chain AND (b.block_hash IS NULL OR b.block_hash = d.block_hash)
    ORDER BY d.id FOR UPDATE OF d
  ) d;
  IF v_ids IS NULL THEN
    RETURN;
  END IF;

  -- Accounts first (created on first use, users' in one statement), then every one of them
  -- locked in id order.
  SELECT array_agg(c ORDER BY c), array_agg(ledger_account(NULL, c, 'world') ORDER BY c) INTO v_world_cur, v_world_acc
  FROM (SELECT DISTINCT unnest(v_currencies) AS c) q;
  INSERT INTO accounts (currency_id, user_id, kind, min_balance)
  SELECT DISTINCT x.c, x.u, 'available', 0 FROM unnest(v_users, v_currencies) AS x(u, c)
  -- One probe of accounts_user_key (a partial index: hence user_id IS NOT NULL) per deposit.
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE a.user_id IS NOT NULL AND a.user_id = x.u AND a.currency_id = x.c AND a.kind = 'available' LIMIT 1
  ) a ON true
  WHERE a.id IS NULL
  ORDER BY x.u, x.c
  ON CONFLICT DO NOTHING;
  SELECT array_agg(v_world_acc[array_position(v_world_cur, x.c)] ORDER BY x.i), array_agg(a.id ORDER BY x.i)
  INTO v_world, v_user_acc
  FROM unnest(v_users, v_currencies) WITH ORDINALITY AS x(u, c, i)
  JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE a.user_id IS NOT NULL AND a.user_id = x.u AND a.currency_id = x.c AND a.kind = 'available' LIMIT 1
  ) a ON true;
  IF coalesce(array_length(v_user_acc, 1), 0) <> array_length(v_ids, 1) THEN
    RAISE EXCEPTION 'coffer_deposit_credit_due: an account is missing' USING ERRCODE = 'CB900';
  END IF;
  PERFORM 1 FROM accounts WHERE id = ANY (v_world || v_user_acc) ORDER BY id FOR UPDATE;

  -- One entry per deposit, ids in deposit order (one session's nextval calls ascend).
  v_entries := ARRAY(SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) FROM generate_series(1, array_length(v_ids, 1)));
  INSERT INTO journal_entries (id, kind, user_id) SELECT e, 'deposit', u FROM unnest(v_entries, v_users) AS x(e, u) ORDER BY e;
  -- Two postings per entry (world first); ids follow (entry, side), so each account's
  -- balance_after runs in id order.
  INSERT INTO postings (entry_id, account_id, currency_id, amount, balance_after)
  SELECT p.entry_id, p.account_id, p.currency_id, p.amount,
         a.balance + sum(p.amount) OVER (PARTITION BY p.account_id ORDER BY p.entry_id, p.side)
  FROM (
    SELECT e AS entry_id, w AS account_id, c AS currency_id, -m AS amount, 0 AS side
    FROM unnest(v_entries, v_world, v_currencies, v_amounts) AS x(e, w, c, m)
    UNION ALL
    SELECT e, ua, c, m, 1 FROM unnest(v_entries, v_user_acc, v_currencies, v_amounts) AS x(e, ua, c, m)
  ) p JOIN accounts a ON a.id = p.account_id
  ORDER BY p.entry_id, p.side;
  UPDATE accounts a SET balance = a.balance + s.total
  FROM (SELECT account_id, sum(amount) AS total FROM (
          SELECT w AS account_id, -m AS amount FROM unnest(v_world, v_amounts) AS x(w, m)
          UNION ALL SELECT ua, m FROM unnest(v_user_acc, v_amounts) AS x(ua, m)) q GROUP BY account_id) s
  WHERE a.id = s.account_id;

  -- Invariant: money is neither created nor destroyed, per entry and currency.
  SELECT count(*) INTO v_unbalanced FROM (
    SELECT p.entry_id FROM unnest(v_entries) AS x(e) JOIN postings p ON p.entry_id = x.e
    GROUP BY p.entry_id, p.currency_id HAVING sum(p.amount) <> 0 OR count(*) <> 2
  ) u;
  IF v_unbalanced > 0 THEN
    RAISE EXCEPTION 'coffer_deposit_credit_due: % unbalanced entries', v_unbalanced USING ERRCODE = 'CB900';
  END IF;

  UPDATE deposits d SET status = 'credited', entry_id = x.e, credited_at = now(), updated_at = now()
  FROM unnest(v_ids, v_entries) AS x(id, e) WHERE d.id = x.id;
  INSERT INTO user_events (user_id, type, ref_id, status)
  SELECT u, 'deposit', id, 'credited' FROM unnest(v_ids, v_users) AS x(id, u) ORDER BY id;
  RETURN QUERY SELECT unnest(v_ids);
END $$;
--> statement-breakpoint

-- Records one scanned range (decision 011): deposits upserted on (network, tx hash, log index),
-- the owners' events, the block hashes near the tip, the pruned window and the cursor, in one
-- statement, so the cursor never moves without the deposits below it. Then, with p_credit,
-- credits what is due at the range's last block (coffer_deposit_credit_due) in the same
-- transaction: one round trip and one commit per chunk of a catch-up.
-- p_recheck (the second look): the cursor stays and rechecked_block moves instead.
-- Returns the deposits inserted (not seen before) and the number credited.
CREATE OR REPLACE FUNCTION coffer_deposit_record_chunk(
  p_chain integer, p_network integer[], p_currency integer[], p_user bigint[], p_address text[], p_from text[],
  p_tx text[], p_log integer[], p_block bigint[], p_block_hash text[], p_amount numeric[],
  p_heights bigint[], p_hashes text[], p_parents text[], p_prune_below bigint, p_to bigint, p_to_hash text,
  p_recheck boolean, p_credit boolean)
RETURNS TABLE (r_inserted integer, r_credited integer) LANGUAGE plpgsql
SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET plan_cache_mode = force_generic_plan
AS $$
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
END $$;

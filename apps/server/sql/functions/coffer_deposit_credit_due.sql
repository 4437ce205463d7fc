CREATE OR REPLACE FUNCTION public.coffer_deposit_credit_due(p_chain integer, p_height bigint)
 RETURNS TABLE(c_id bigint)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
END $function$

COMMENT ON FUNCTION public.coffer_deposit_credit_due IS 'Credits every pending deposit of the chain that has its network''s confirmations at the given height: world -> the owner''s available, once per deposit (the row moves to credited in the same statement).';

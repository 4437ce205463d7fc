CREATE OR REPLACE FUNCTION public.coffer_deposit_credit_due(p_chain integer, p_height bigint)
 RETURNS TABLE(c_id bigint)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_ids bigint[];
  v_unbalanced integer;
BEGIN
  SELECT array_agg(d.id ORDER BY d.id) INTO v_ids FROM (
    SELECT d.id FROM deposits d JOIN networks n ON n.id = d.network_id
    LEFT JOIN chain_blocks b ON b.chain_id = n.chain_id AND b.block_number = d.block_number
    WHERE n.chain_id = p_chain AND d.status = 'pending' AND p_height - d.block_number + 1 >= n.confirmations
      AND (b.block_hash IS NULL OR b.block_hash = d.block_hash)
    ORDER BY d.id FOR UPDATE OF d
  ) d;
  IF v_ids IS NULL THEN
    RETURN;
  END IF;

  -- Accounts first (created on first use), then every one of them locked in id order.
  CREATE TEMP TABLE IF NOT EXISTS coffer_credit_tmp (
    deposit_id bigint, entry_id bigint, user_id bigint, currency_id integer, amount numeric,
    world_acc bigint, user_acc bigint) ON COMMIT DROP;
  TRUNCATE coffer_credit_tmp;
  -- Each distinct account is resolved once (ledger_account creates it on first use).
  WITH dep AS (
    SELECT d.id, d.user_id, d.currency_id, d.amount, x.ord
    FROM deposits d JOIN unnest(v_ids) WITH ORDINALITY AS x(id, ord) ON x.id = d.id
  ), worlds AS (
    SELECT c.currency_id, ledger_account(NULL, c.currency_id, 'world') AS acc FROM (SELECT DISTINCT currency_id FROM dep) c
  ), users AS (
    SELECT u.user_id, u.currency_id, ledger_account(u.user_id, u.currency_id, 'available') AS acc
    FROM (SELECT DISTINCT user_id, currency_id FROM dep) u
  )
  INSERT INTO coffer_credit_tmp
  SELECT dep.id, nextval(pg_get_serial_sequence('journal_entries', 'id')), dep.user_id, dep.currency_id, dep.amount, w.acc, u.acc
  FROM dep JOIN worlds w ON w.currency_id = dep.currency_id
  JOIN users u ON u.user_id = dep.user_id AND u.currency_id = dep.currency_id
  ORDER BY dep.ord;
  PERFORM 1 FROM accounts WHERE id IN (SELECT world_acc FROM coffer_credit_tmp UNION SELECT user_acc FROM coffer_credit_tmp)
  ORDER BY id FOR UPDATE;

  INSERT INTO journal_entries (id, kind, user_id) SELECT entry_id, 'deposit', user_id FROM coffer_credit_tmp ORDER BY entry_id;
  -- Two postings per entry (world first); ids follow (entry, side), so each account's
  -- balance_after runs in id order.
  INSERT INTO postings (entry_id, account_id, currency_id, amount, balance_after)
  SELECT p.entry_id, p.account_id, p.currency_id, p.amount,
         a.balance + sum(p.amount) OVER (PARTITION BY p.account_id ORDER BY p.entry_id, p.side)
  FROM (
    SELECT entry_id, world_acc AS account_id, currency_id, -amount AS amount, 0 AS side FROM coffer_credit_tmp
    UNION ALL
    SELECT entry_id, user_acc, currency_id, amount, 1 FROM coffer_credit_tmp
  ) p JOIN accounts a ON a.id = p.account_id
  ORDER BY p.entry_id, p.side;
  UPDATE accounts a SET balance = a.balance + s.total
  FROM (SELECT account_id, sum(amount) AS total FROM (
          SELECT world_acc AS account_id, -amount AS amount FROM coffer_credit_tmp
          UNION ALL SELECT user_acc, amount FROM coffer_credit_tmp) q GROUP BY account_id) s
  WHERE a.id = s.account_id;

  -- Invariant: money is neither created nor destroyed, per entry and currency.
  SELECT count(*) INTO v_unbalanced FROM (
    SELECT p.entry_id FROM postings p JOIN coffer_credit_tmp t ON t.entry_id = p.entry_id
    GROUP BY p.entry_id, p.currency_id HAVING sum(p.amount) <> 0 OR count(*) <> 2
  ) u;
  IF v_unbalanced > 0 THEN
    RAISE EXCEPTION 'coffer_deposit_credit_due: % unbalanced entries', v_unbalanced USING ERRCODE = 'CB900';
  END IF;

  UPDATE deposits d SET status = 'credited', entry_id = t.entry_id, credited_at = now(), updated_at = now()
  FROM coffer_credit_tmp t WHERE d.id = t.deposit_id;
  INSERT INTO user_events (user_id, type, ref_id, status)
  SELECT user_id, 'deposit', deposit_id, 'credited' FROM coffer_credit_tmp ORDER BY deposit_id;
  RETURN QUERY SELECT deposit_id FROM coffer_credit_tmp ORDER BY deposit_id;
END $function$

CREATE OR REPLACE FUNCTION public.coffer_adjust(p_user bigint, p_currency integer, p_amount numeric, p_reason text, p_actor text, p_actor_user bigint, p_key text, p_hash text)
 RETURNS TABLE(a_id bigint, a_entry bigint, a_amount numeric, a_balance_after numeric, a_created timestamp with time zone, a_replayed boolean)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_entry bigint;
  v_hash text;
  v_user_acc bigint;
  v_adj_acc bigint;
  v_id bigint;
  v_created timestamptz;
  v_after numeric;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'an adjustment needs a reason and an actor' USING ERRCODE = 'CB900';
  END IF;
  v_entry := ledger_open_entry('adjustment', p_actor_user, p_key, p_hash, p_reason);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash
    FROM journal_entries e WHERE e.user_id = p_actor_user AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN QUERY
      SELECT a.id, a.entry_id, a.amount, p.balance_after, a.created_at, true
      FROM adjustments a
      JOIN accounts acc ON acc.user_id = a.user_id AND acc.currency_id = a.currency_id AND acc.kind = 'available'
      JOIN postings p ON p.entry_id = a.entry_id AND p.account_id = acc.id
      WHERE a.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;

  PERFORM 1 FROM users WHERE id = p_user;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'user % not found', p_user USING ERRCODE = 'CB004';
  END IF;
  PERFORM coffer_check_amount(p_currency, abs(p_amount), false, false);

  v_user_acc := ledger_account(p_user, p_currency, 'available');
  v_adj_acc := ledger_account(NULL, p_currency, 'adjustments');
  PERFORM ledger_post(v_entry, ARRAY[v_user_acc, v_adj_acc], ARRAY[p_amount, -p_amount]);

  INSERT INTO adjustments (entry_id, user_id, currency_id, amount, reason, actor, actor_user_id)
  VALUES (v_entry, p_user, p_currency, p_amount, btrim(p_reason), btrim(p_actor), p_actor_user)
  RETURNING id, created_at INTO v_id, v_created;
  SELECT p.balance_after INTO v_after FROM postings p WHERE p.entry_id = v_entry AND p.account_id = v_user_acc;

  RETURN QUERY SELECT v_id, v_entry, p_amount, v_after, v_created, false;
END $function$

COMMENT ON FUNCTION public.coffer_adjust IS 'An operator''s correction of a user''s available balance against the adjustments account, with its adjustments row (who, why); a request above ADJUST_APPROVAL_ABOVE reaches it only once a second operator approved (decision 043).';

CREATE OR REPLACE FUNCTION public.coffer_transfer_apply(p_from bigint, p_to bigint, p_to_email text, p_to_nickname text, p_currency integer, p_amount numeric, p_memo text, p_via text, p_key text, p_hash text, p_from_acc bigint, p_to_acc bigint)
 RETURNS TABLE(t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text, t_amount numeric, t_memo text, t_created timestamp with time zone, t_replayed boolean)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_entry bigint;
  v_kind text;
  v_hash text;
  v_refusal text;
  v_id bigint;
  v_created timestamptz;
BEGIN
  v_entry := ledger_open_entry('transfer', p_from, p_key, p_hash, p_memo);
  IF v_entry IS NULL THEN
    SELECT e.id, e.kind, e.request_hash, e.refusal INTO v_entry, v_kind, v_hash, v_refusal
    FROM journal_entries e WHERE e.user_id = p_from AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash OR (v_refusal IS NOT NULL AND v_kind <> 'transfer') THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    IF v_refusal IS NOT NULL THEN
      RAISE EXCEPTION 'idempotency key % was refused (%)', p_key, v_refusal USING ERRCODE = v_refusal;
    END IF;
    RETURN QUERY
      SELECT t.id, t.entry_id, u.id, u.email, u.nickname, t.amount, t.memo, t.created_at, true
      FROM transfers t JOIN users u ON u.id = t.to_user_id
      WHERE t.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;
  IF p_to IS NULL THEN
    RAISE EXCEPTION 'recipient not found' USING ERRCODE = 'CB004';
  END IF;
  IF p_to = p_from THEN
    RAISE EXCEPTION 'cannot send to oneself' USING ERRCODE = 'CB005';
  END IF;
  PERFORM coffer_check_amount(p_currency, p_amount, true, true);
  PERFORM ledger_post(v_entry,
    ARRAY[coalesce(p_from_acc, ledger_account(p_from, p_currency, 'available')),
          coalesce(p_to_acc, ledger_account(p_to, p_currency, 'available'))],
    ARRAY[-p_amount, p_amount]);
  INSERT INTO transfers (entry_id, from_user_id, to_user_id, currency_id, amount, memo, via)
  VALUES (v_entry, p_from, p_to, p_currency, p_amount, p_memo, p_via)
  RETURNING id, created_at INTO v_id, v_created;
  RETURN QUERY SELECT v_id, v_entry, p_to, p_to_email, p_to_nickname, p_amount, p_memo, v_created, false;
END $function$

COMMENT ON FUNCTION public.coffer_transfer_apply IS 'One user-to-user transfer (available -> available) with its transfers row; the single-item path beside coffer_transfer_batch, which the HTTP API uses. A refusal is raised with its code for the caller to keep under the idempotency key.';

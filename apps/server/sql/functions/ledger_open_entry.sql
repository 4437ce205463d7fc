CREATE OR REPLACE FUNCTION public.ledger_open_entry(p_kind text, p_user bigint, p_key text, p_hash text, p_memo text)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id bigint;
BEGIN
  IF p_key IS NULL THEN
    INSERT INTO journal_entries (kind, user_id, memo) VALUES (p_kind, p_user, p_memo) RETURNING id INTO v_id;
    RETURN v_id;
  END IF;
  INSERT INTO journal_entries (kind, user_id, idempotency_key, request_hash, memo)
  VALUES (p_kind, p_user, p_key, p_hash, p_memo)
  ON CONFLICT (user_id, idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  RETURN v_id;
END $function$

COMMENT ON FUNCTION public.ledger_open_entry IS 'Opens the journal entry a money function posts under: its kind (which business table holds its one row, checked by the ledger audit), the user, and the idempotency key and request hash that make a replay answer the first result.';

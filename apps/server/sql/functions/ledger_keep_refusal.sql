CREATE OR REPLACE FUNCTION public.ledger_keep_refusal(p_kind text, p_user bigint, p_key text, p_hash text, p_state text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF p_key IS NULL OR p_user IS NULL OR NOT ledger_refusal_kept(p_state) THEN
    RETURN p_state;
  END IF;
  INSERT INTO journal_entries (kind, user_id, idempotency_key, request_hash, refusal)
  VALUES (p_kind, p_user, p_key, p_hash, p_state)
  ON CONFLICT (user_id, idempotency_key) DO NOTHING;
  IF FOUND THEN
    RETURN p_state;
  END IF;
  PERFORM 1 FROM journal_entries e
  WHERE e.user_id = p_user AND e.idempotency_key = p_key AND e.kind = p_kind
    AND e.request_hash IS NOT DISTINCT FROM p_hash AND e.refusal = p_state;
  IF FOUND THEN
    RETURN p_state;
  END IF;
  RETURN '40001';
END $function$

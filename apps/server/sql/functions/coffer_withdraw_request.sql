CREATE OR REPLACE FUNCTION public.coffer_withdraw_request(p_user bigint, p_network integer, p_address text, p_amount numeric, p_memo text, p_key text, p_hash text, p_quote bigint)
 RETURNS TABLE(w_id bigint, w_replayed boolean, w_refusal text)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_state text;
BEGIN
  BEGIN
    RETURN QUERY SELECT a.w_id, a.w_replayed, NULL::text
      FROM coffer_withdraw_apply(p_user, p_network, p_address, p_amount, p_memo, p_key, p_hash, p_quote) a;
    RETURN;
  EXCEPTION WHEN OTHERS THEN
    v_state := SQLSTATE;
    IF p_key IS NULL OR NOT ledger_refusal_kept(v_state) THEN
      RAISE;
    END IF;
  END;
  BEGIN
    v_state := ledger_keep_refusal('withdraw_hold', p_user, p_key, p_hash, v_state);
  EXCEPTION WHEN OTHERS THEN
    v_state := SQLSTATE;
  END;
  RETURN QUERY SELECT NULL::bigint, NULL::boolean, v_state;
END $function$

COMMENT ON FUNCTION public.coffer_withdraw_request IS 'Runs coffer_withdraw_apply; a refusal the ledger keeps (insufficient balance, the daily limit, a quote refused ...) is stored under the idempotency key, so a replay answers the same refusal instead of trying again.';

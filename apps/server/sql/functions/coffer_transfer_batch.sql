CREATE OR REPLACE FUNCTION public.coffer_transfer_batch(p_tokens text[], p_to_uids bigint[], p_to_emails text[], p_currencies integer[], p_amounts numeric[], p_memos text[], p_keys text[], p_hashes text[])
 RETURNS TABLE(b_i integer, b_state text, t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text, t_amount numeric, t_memo text, t_created timestamp with time zone, t_replayed boolean)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_n integer := coalesce(array_length(p_tokens, 1), 0);
  v_from bigint[] := '{}';
  v_to bigint[] := '{}';
  v_to_email text[] := '{}';
  v_to_nick text[] := '{}';
  v_from_acc bigint[] := '{}';
  v_to_acc bigint[] := '{}';
  v_user bigint;
  v_rcpt bigint;
  v_email text;
  v_nick text;
  v_a bigint;
  v_b bigint;
  v_state text;
BEGIN
  IF v_n > 50 THEN
    RAISE EXCEPTION 'coffer_transfer_batch: % items, at most 50', v_n USING ERRCODE = 'CB900';
  END IF;

  -- 1. Sender, recipient and both accounts of every item.
  FOR i IN 1..v_n LOOP
    v_user := NULL;
    v_rcpt := NULL;
    v_email := NULL;
    v_nick := NULL;
    v_a := NULL;
    v_b := NULL;
    SELECT s.user_id INTO v_user FROM sessions s
    WHERE s.token_hash = p_tokens[i] AND s.revoked_at IS NULL AND s.expires_at > now();
    IF v_user IS NOT NULL THEN
      IF p_to_uids[i] IS NOT NULL THEN
        SELECT u.id, u.email, u.nickname INTO v_rcpt, v_email, v_nick FROM users u WHERE u.id = p_to_uids[i];
      ELSE
        SELECT u.id, u.email, u.nickname INTO v_rcpt, v_email, v_nick FROM users u WHERE u.email = lower(p_to_emails[i]);
      END IF;
      -- Unknown recipient, oneself, unknown currency: coffer_transfer_apply() names the refusal.
      IF v_rcpt IS NOT NULL AND v_rcpt <> v_user AND EXISTS (SELECT 1 FROM currencies c WHERE c.id = p_currencies[i]) THEN
        v_a := ledger_account(v_user, p_currencies[i], 'available');
        v_b := ledger_account(v_rcpt, p_currencies[i], 'available');
      END IF;
    END IF;
    v_from := v_from || v_user;
    v_to := v_to || v_rcpt;
    v_to_email := v_to_email || v_email;
    v_to_nick := v_to_nick || v_nick;
    v_from_acc := v_from_acc || v_a;
    v_to_acc := v_to_acc || v_b;
  END LOOP;

  -- 2. All locks at once, in id order.
  PERFORM 1 FROM accounts WHERE id = ANY (v_from_acc || v_to_acc) ORDER BY id FOR UPDATE;

  -- 3. Each transfer on its own.
  FOR i IN 1..v_n LOOP
    IF v_from[i] IS NULL THEN
      RETURN QUERY SELECT i, 'AUTH'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
        NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
      CONTINUE;
    END IF;
    BEGIN
      RETURN QUERY SELECT i, NULL::text, t.* FROM coffer_transfer_apply(v_from[i], v_to[i], v_to_email[i], v_to_nick[i],
        p_currencies[i], p_amounts[i], p_memos[i], CASE WHEN p_to_uids[i] IS NOT NULL THEN 'uid' ELSE 'email' END,
        p_keys[i], p_hashes[i], v_from_acc[i], v_to_acc[i]) t;
    EXCEPTION WHEN OTHERS THEN
      v_state := SQLSTATE;
      IF p_keys[i] IS NOT NULL AND ledger_refusal_kept(v_state) THEN
        BEGIN
          v_state := ledger_keep_refusal('transfer', v_from[i], p_keys[i], p_hashes[i], v_state);
        EXCEPTION WHEN OTHERS THEN
          v_state := SQLSTATE;
        END;
      END IF;
      RETURN QUERY SELECT i, v_state, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
        NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
    END;
  END LOOP;
END $function$

CREATE OR REPLACE FUNCTION public.coffer_transfer_batch(p_tokens text[], p_to_uids bigint[], p_to_emails text[], p_currencies integer[], p_amounts numeric[], p_memos text[], p_keys text[], p_hashes text[], p_wait boolean[] DEFAULT NULL::boolean[], p_stepped boolean[] DEFAULT NULL::boolean[])
 RETURNS TABLE(b_i integer, b_state text, t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text, t_amount numeric, t_memo text, t_created timestamp with time zone, t_replayed boolean)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_n integer := coalesce(array_length(p_tokens, 1), 0);
  -- Per item (index i).
  v_from bigint[];
  v_to bigint[];
  v_to_email text[];
  v_to_nick text[];
  -- 'STEPUP' for an item that may not run whatever its balance: two-factor on, and no second
  -- factor checked for it.
  v_guard text[];
  -- When the sender's oldest active security hold began (null: none). Such an item is judged
  -- on its own in step 7: all it sent since then plus this one within the hold-free amount.
  v_held_since timestamptz[];
  v_sent numeric;
  v_from_acc bigint[];
  v_to_acc bigint[];
  v_amount_ok boolean[];
  v_key_taken integer[];
  v_clean boolean[] := '{}';
  v_busy boolean[] := '{}';
  v_wait_acc bigint[] := '{}';
  v_free_acc bigint[] := '{}';
  v_entry bigint[] := '{}';
  v_transfer bigint[] := '{}';
  -- Per locked account (index k, id order).
  v_acc bigint[];
  v_bal numeric[];
  v_floor numeric[];
  v_delta numeric[];
  -- The clean items' rows, in item order.
  v_e_id bigint[] := '{}';
  v_e_user bigint[] := '{}';
  v_e_key text[] := '{}';
  v_e_hash text[] := '{}';
  v_e_memo text[] := '{}';
  v_p_id bigint[] := '{}';
  v_p_entry bigint[] := '{}';
  v_p_acc bigint[] := '{}';
  v_p_cur integer[] := '{}';
  v_p_amount numeric[] := '{}';
  v_p_after numeric[] := '{}';
  v_t_item integer[] := '{}';
  v_keys_seen text[] := '{}';
  v_kf integer;
  v_kt integer;
  v_amt numeric;
  v_changed integer;
  v_updated integer;
  v_state text;
BEGIN
  IF v_n > 50 THEN
    RAISE EXCEPTION 'coffer_transfer_batch: % items, at most 50', v_n USING ERRCODE = 'CB900';
  END IF;
  IF v_n = 0 THEN
    RETURN;
  END IF;

  -- Every access here is by key. Lookups are LATERAL ... LIMIT 1, one index probe per item, and
  -- the function runs with sequential scans, hash and merge joins off: PL/pgSQL keeps a
  -- statement's plan, and one made while a table was small (a fresh database) scanned all of
  -- journal_entries for every item, and all accounts for the update, as the tables grew
  -- (measured: database CPU per transfer rising through a 10 s bench run).
  -- 1. Every item's sender (its session, of an account not disabled), recipient and guards, in
  -- one statement. The step-up policy (decision 033): with two-factor on, the caller must have
  -- checked a second factor for the item (p_stepped). A security hold: the start of the
  -- sender's oldest active one (the amount is judged in step 7).
  SELECT array_agg(s.user_id ORDER BY x.i), array_agg(r.id ORDER BY x.i),
         array_agg(r.email ORDER BY x.i), array_agg(r.nickname ORDER BY x.i),
         array_agg(CASE WHEN s.two_factor AND NOT coalesce(p_stepped[x.i], false) THEN 'STEPUP' END ORDER BY x.i),
         array_agg(s.held_since ORDER BY x.i)
  INTO v_from, v_to, v_to_email, v_to_nick, v_guard, v_held_since
  FROM unnest(p_tokens, p_to_uids, p_to_emails) WITH ORDINALITY AS x(token, to_uid, to_email, i)
  LEFT JOIN LATERAL (
    SELECT s.user_id,
           EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = s.user_id AND t.enabled_at IS NOT NULL) AS two_factor,
           (SELECT min(h.created_at) FROM security_holds h
            WHERE h.user_id = s.user_id AND h.ends_at > now() AND h.cancelled_at IS NULL) AS held_since
    FROM sessions s JOIN users u ON u.id = s.user_id AND u.disabled_at IS NULL
    WHERE s.token_hash = x.token AND s.revoked_at IS NULL AND s.expires_at > now() LIMIT 1
  ) s ON true
  LEFT JOIN LATERAL (
    SELECT u.id, u.email, u.nickname FROM users u WHERE x.to_uid IS NOT NULL AND u.id = x.to_uid
    UNION ALL
    SELECT u.id, u.email, u.nickname FROM users u WHERE x.to_uid IS NULL AND u.email = lower(x.to_email)
    LIMIT 1
  ) r ON s.user_id IS NOT NULL;

  -- 2. Both accounts of every item that has a sender, a recipient other than the sender and a
  -- known currency (the others are refused by coffer_transfer_apply(), which names why), and
  -- whether its amount passes.
  SELECT array_agg(fa.id ORDER BY x.i), array_agg(ta.id ORDER BY x.i),
         array_agg(x.f IS NOT NULL AND coffer_amount_refusal(x.c, x.amount, true, true) IS NULL ORDER BY x.i)
  INTO v_from_acc, v_to_acc, v_amount_ok
  FROM unnest(v_from, v_to, p_currencies, p_amounts) WITH ORDINALITY AS x(f, t, c, amount, i)
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE x.t <> x.f AND a.user_id = x.f AND a.currency_id = x.c AND a.kind = 'available' LIMIT 1
  ) fa ON true
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE x.t <> x.f AND a.user_id = x.t AND a.currency_id = x.c AND a.kind = 'available' LIMIT 1
  ) ta ON true;
  FOR i IN 1..v_n LOOP
    -- An account a user does not have yet (a first receipt in a currency) is opened here.
    IF v_from[i] IS NOT NULL AND v_to[i] IS NOT NULL AND v_to[i] <> v_from[i]
       AND (v_from_acc[i] IS NULL OR v_to_acc[i] IS NULL)
       AND EXISTS (SELECT 1 FROM currencies c WHERE c.id = p_currencies[i]) THEN
      v_from_acc[i] := coalesce(v_from_acc[i], ledger_account(v_from[i], p_currencies[i], 'available'));
      v_to_acc[i] := coalesce(v_to_acc[i], ledger_account(v_to[i], p_currencies[i], 'available'));
    END IF;
  END LOOP;

  -- 3. Items whose key is taken already (replays and reused keys take the careful path).
  SELECT coalesce(array_agg(x.i::integer), '{}') INTO v_key_taken
  FROM unnest(v_from, p_keys) WITH ORDINALITY AS x(f, k, i)
  JOIN LATERAL (
    SELECT 1 FROM journal_entries e WHERE x.k IS NOT NULL AND e.user_id = x.f AND e.idempotency_key = x.k LIMIT 1
  ) e ON true;

  -- 4. The locks, in id order, with the balances they protect: first the accounts of the items
  -- that wait (blocking, so two batches cannot deadlock), then those of the items that do not,
  -- skipping any held elsewhere. An account missing from v_acc is one this batch does not hold.
  FOR i IN 1..v_n LOOP
    IF coalesce(p_wait[i], true) THEN
      v_wait_acc := v_wait_acc || v_from_acc[i] || v_to_acc[i];
    ELSE
      v_free_acc := v_free_acc || v_from_acc[i] || v_to_acc[i];
    END IF;
  END LOOP;
  v_wait_acc := array_remove(v_wait_acc, NULL);
  SELECT coalesce(array_agg(a.id), '{}'), coalesce(array_agg(a.balance), '{}'), coalesce(array_agg(a.min_balance), '{}')
  INTO v_acc, v_bal, v_floor
  FROM (SELECT id, balance, min_balance FROM accounts WHERE id = ANY (v_wait_acc) ORDER BY id FOR UPDATE) a;
  IF array_length(v_free_acc, 1) > 0 THEN
    SELECT v_acc || coalesce(array_agg(a.id), '{}'), v_bal || coalesce(array_agg(a.balance), '{}'),
           v_floor || coalesce(array_agg(a.min_balance), '{}')
    INTO v_acc, v_bal, v_floor
    FROM (SELECT id, balance, min_balance FROM accounts WHERE id = ANY (v_free_acc) AND id <> ALL (v_wait_acc)
          ORDER BY id FOR UPDATE SKIP LOCKED) a;
  END IF;
  v_delta := array_fill(0::numeric, ARRAY[coalesce(array_length(v_acc, 1), 0)]);

  -- 5. The batch in order on those balances: which items are clean, and their rows.
  FOR i IN 1..v_n LOOP
    v_kf := array_position(v_acc, v_from_acc[i]);
    v_kt := array_position(v_acc, v_to_acc[i]);
    v_amt := p_amounts[i];
    -- An account of the item is held by another batch: nothing of it runs here.
    v_busy[i] := (v_from_acc[i] IS NOT NULL AND v_kf IS NULL) OR (v_to_acc[i] IS NOT NULL AND v_kt IS NULL);
    IF v_busy[i] THEN
      v_clean[i] := false;
      CONTINUE;
    END IF;
    -- coalesce: a NULL anywhere (a missing value) makes the item careful, never clean.
    v_clean[i] := coalesce(v_from[i] IS NOT NULL AND v_to[i] IS NOT NULL AND v_to[i] <> v_from[i]
      AND v_amount_ok[i] AND v_kf IS NOT NULL AND v_kt IS NOT NULL AND v_kf <> v_kt
      AND NOT (i = ANY (v_key_taken)) AND v_guard[i] IS NULL AND v_held_since[i] IS NULL
      AND (p_keys[i] IS NULL OR NOT ((v_from[i] || ':' || p_keys[i]) = ANY (v_keys_seen)))
      AND (v_floor[v_kf] IS NULL OR v_bal[v_kf] - v_amt >= v_floor[v_kf]), false);
    IF NOT v_clean[i] THEN
      CONTINUE;
    END IF;
    -- Invariant: a clean item moves a positive amount between two accounts of its currency.
    IF NOT (v_amt > 0) THEN
      RAISE EXCEPTION 'coffer_transfer_batch: item % is clean with amount %', i, v_amt USING ERRCODE = 'CB900';
    END IF;
    IF p_keys[i] IS NOT NULL THEN
      v_keys_seen := v_keys_seen || (v_from[i] || ':' || p_keys[i]);
    END IF;
    v_entry[i] := nextval('journal_entries_id_seq'::regclass);
    v_transfer[i] := nextval('transfers_id_seq'::regclass);
    v_e_id := v_e_id || v_entry[i];
    v_e_user := v_e_user || v_from[i];
    v_e_key := v_e_key || p_keys[i];
    v_e_hash := v_e_hash || p_hashes[i];
    v_e_memo := v_e_memo || p_memos[i];
    v_bal[v_kf] := v_bal[v_kf] - v_amt;
    v_delta[v_kf] := v_delta[v_kf] - v_amt;
    v_bal[v_kt] := v_bal[v_kt] + v_amt;
    v_delta[v_kt] := v_delta[v_kt] + v_amt;
    -- Posting ids are taken here, in item order, so each account's balance_after chain follows id order.
    v_p_id := v_p_id || nextval('postings_id_seq'::regclass) || nextval('postings_id_seq'::regclass);
    v_p_entry := v_p_entry || v_entry[i] || v_entry[i];
    v_p_acc := v_p_acc || v_from_acc[i] || v_to_acc[i];
    v_p_cur := v_p_cur || p_currencies[i] || p_currencies[i];
    v_p_amount := v_p_amount || (-v_amt) || v_amt;
    v_p_after := v_p_after || v_bal[v_kf] || v_bal[v_kt];
    v_t_item := v_t_item || i;
  END LOOP;

  -- 6. The clean items, one statement per table.
  IF array_length(v_t_item, 1) > 0 THEN
    -- A key can still be taken by a twin in a concurrent batch (it was not committed at step 3):
    -- then the whole statement is refused as a serialization failure, which the writer runs
    -- again, and the item is then a replay. Never a unique violation (a failed batch of one).
    INSERT INTO journal_entries (id, kind, user_id, idempotency_key, request_hash, memo)
    SELECT e.id, 'transfer', e.u, e.k, e.h, e.m FROM unnest(v_e_id, v_e_user, v_e_key, v_e_hash, v_e_memo) AS e(id, u, k, h, m)
    ON CONFLICT (user_id, idempotency_key) DO NOTHING;
    GET DIAGNOSTICS v_updated = ROW_COUNT;
    IF v_updated <> array_length(v_e_id, 1) THEN
      RAISE EXCEPTION 'coffer_transfer_batch: an Idempotency-Key was taken by a concurrent batch' USING ERRCODE = '40001';
    END IF;
    INSERT INTO postings (id, entry_id, account_id, currency_id, amount, balance_after)
    SELECT * FROM unnest(v_p_id, v_p_entry, v_p_acc, v_p_cur, v_p_amount, v_p_after);
    -- Invariant: the batch's postings sum to zero (each clean item is -amount, +amount).
    IF (SELECT sum(a) FROM unnest(v_p_amount) a) <> 0 THEN
      RAISE EXCEPTION 'coffer_transfer_batch: postings do not sum to zero' USING ERRCODE = 'CB900';
    END IF;
    SELECT count(*) INTO v_changed FROM unnest(v_delta) d WHERE d <> 0;
    UPDATE accounts a SET balance = a.balance + d.delta
    FROM unnest(v_acc, v_delta) AS d(id, delta)
    WHERE a.id = d.id AND d.delta <> 0;
    GET DIAGNOSTICS v_updated = ROW_COUNT;
    IF v_updated <> v_changed THEN
      RAISE EXCEPTION 'coffer_transfer_batch: % accounts changed, % updated', v_changed, v_updated USING ERRCODE = 'CB900';
    END IF;
    INSERT INTO transfers (id, entry_id, from_user_id, to_user_id, currency_id, amount, memo, via)
    SELECT v_transfer[x.i], v_entry[x.i], v_from[x.i], v_to[x.i], p_currencies[x.i], p_amounts[x.i], p_memos[x.i],
           CASE WHEN p_to_uids[x.i] IS NOT NULL THEN 'uid' ELSE 'email' END
    FROM unnest(v_t_item) AS x(i);
    RETURN QUERY
      SELECT x.i, NULL::text, v_transfer[x.i], v_entry[x.i], v_to[x.i], v_to_email[x.i], v_to_nick[x.i],
             p_amounts[x.i], p_memos[x.i], now(), false
      FROM unnest(v_t_item) AS x(i);
  END IF;

  -- 7. Every other item on its own, as if it had arrived after the clean ones.
  FOR i IN 1..v_n LOOP
    IF v_clean[i] THEN
      CONTINUE;
    END IF;
    IF v_busy[i] THEN
      RETURN QUERY SELECT i, 'BUSY'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
        NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
      CONTINUE;
    END IF;
    IF v_from[i] IS NULL THEN
      RETURN QUERY SELECT i, 'AUTH'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
        NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
      CONTINUE;
    END IF;
    -- A guarded item is refused without being kept under its key (a second factor or the hold's
    -- end makes the same request good), unless the key has its answer already: a replay moves
    -- nothing, so it is answered as before (coffer_transfer_apply()).
    IF v_guard[i] IS NOT NULL AND NOT (i = ANY (v_key_taken)) THEN
      RETURN QUERY SELECT i, v_guard[i], NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
        NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
      CONTINUE;
    END IF;
    -- Under a security hold: everything sent in the currency since the hold began, this item
    -- included, within the hold-free amount; many small transfers must not add up to what one
    -- large one may not. Counted here, after the clean items and the earlier items of this
    -- batch, on the sender's account lock (a concurrent batch of the sender waits for it).
    IF v_held_since[i] IS NOT NULL AND NOT (i = ANY (v_key_taken)) THEN
      SELECT coalesce(sum(t.amount), 0) INTO v_sent FROM transfers t
      WHERE t.from_user_id = v_from[i] AND t.currency_id = p_currencies[i] AND t.created_at >= v_held_since[i];
      IF NOT coalesce(v_sent + p_amounts[i] <= (SELECT c.hold_free_transfer FROM currencies c WHERE c.id = p_currencies[i] LIMIT 1), false) THEN
        RETURN QUERY SELECT i, 'HOLD'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
          NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
        CONTINUE;
      END IF;
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

COMMENT ON FUNCTION public.coffer_transfer_batch IS 'Many transfers in one statement (group commit, decisions 028 and 030): set-based checks and postings, each item answered on its own (done, refused with its code, or BUSY when told not to wait for an account another batch holds), so one hot account does not stall the batch.';

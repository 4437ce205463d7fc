-- The step-up policy (decision 033) inside the two batch writers, and sessions that cannot
-- outlive an operator's disable.
--
-- coffer_transfer_batch(): the session lookup refuses a disabled account (as
-- coffer_swap_batch() has since 0023); an item of a user with two-factor on runs only when the
-- caller checked a second factor for it (p_stepped), and one of a user under a security hold
-- (0029) only while all the user sent in the currency since the hold began stays within its
-- hold_free_transfer. Both refusals ('STEPUP', 'HOLD') are
-- answered, not kept under the Idempotency-Key; a key that has its answer is answered as before.
-- coffer_swap_batch(): the same 'STEPUP' for a user who opted in (users.step_up_swaps).
-- auth_challenges: 'step_up_passkey' (a passkey ceremony of a signed-in user) and 'step_up'
-- (the single-use token a passkey assertion gives, spent by one money action).
ALTER TABLE "auth_challenges" DROP CONSTRAINT "auth_challenges_purpose_check";
--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_purpose_check"
  CHECK ("purpose" IN ('second_factor', 'passkey_register', 'passkey_login', 'step_up_passkey', 'step_up'));
--> statement-breakpoint
DROP FUNCTION public.coffer_transfer_batch(text[], bigint[], text[], integer[], numeric[], text[], text[], text[], boolean[]);
--> statement-breakpoint
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
;
--> statement-breakpoint
DROP FUNCTION public.coffer_swap_batch(text[], text[], text[], bigint[], integer[], integer[], numeric[], numeric[], numeric[], integer[], numeric[], numeric[], integer[], integer[], text[]);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_swap_batch(p_tokens text[], p_keys text[], p_hashes text[], p_quotes bigint[], p_from_currencies integer[], p_to_currencies integer[], p_from_amounts numeric[], p_to_amounts numeric[], p_fees numeric[], p_fee_currencies integer[], p_rates numeric[], p_mid_rates numeric[], p_spread_bps integer[], p_fee_bps integer[], p_pair_sigs text[], p_stepped boolean[] DEFAULT NULL::boolean[])
 RETURNS TABLE(b_i integer, b_state text, b_user bigint, swap_id bigint, replayed boolean, key_conflict boolean, s_entry bigint, s_created timestamp with time zone)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_n integer := coalesce(array_length(p_tokens, 1), 0);
  -- Per item (index i).
  v_user bigint[];
  -- The items refused by the step-up policy (decision 033): the user opted in to a second factor
  -- on swaps, has two-factor on, and the caller checked none for the item.
  v_stepup integer[];
  v_seen_due bigint[];
  v_uf bigint[];
  v_hf bigint[];
  v_ht bigint[];
  v_ut bigint[];
  v_fe bigint[];
  v_known boolean[];
  -- Per known currency of the batch (index c).
  v_cur integer[];
  v_cur_house bigint[];
  v_cur_fees bigint[];
  v_kf integer;
  v_kt integer;
  v_taken boolean[];
  v_quote_ok integer[] := '{}';
  v_stale integer[] := '{}';
  v_clean boolean[] := '{}';
  v_entry bigint[] := '{}';
  v_swap bigint[] := '{}';
  -- Per locked account (index k, id order).
  v_acc bigint[];
  v_bal numeric[];
  v_floor numeric[];
  v_delta numeric[];
  -- The clean items' rows, in item order.
  v_p_id bigint[] := '{}';
  v_p_entry bigint[] := '{}';
  v_p_acc bigint[] := '{}';
  v_p_cur integer[] := '{}';
  v_p_amount numeric[] := '{}';
  v_p_after numeric[] := '{}';
  v_s_item integer[] := '{}';
  v_keys_seen text[] := '{}';
  v_quotes_seen bigint[] := '{}';
  -- One item's postings (user from, house from, house to, user to, fees).
  v_k integer[];
  v_amt numeric[];
  v_m integer;
  v_after numeric;
  v_ok boolean;
  v_fa numeric;
  v_ta numeric;
  v_fee numeric;
  v_changed integer;
  v_updated integer;
  v_state text;
BEGIN
  IF v_n > 50 THEN
    RAISE EXCEPTION 'coffer_swap_batch: % items, at most 50', v_n USING ERRCODE = 'CB900';
  END IF;
  IF v_n > 0 AND (
       coalesce(array_length(p_keys, 1), 0) <> v_n OR coalesce(array_length(p_hashes, 1), 0) <> v_n
    OR coalesce(array_length(p_quotes, 1), 0) <> v_n OR coalesce(array_length(p_from_currencies, 1), 0) <> v_n
    OR coalesce(array_length(p_to_currencies, 1), 0) <> v_n OR coalesce(array_length(p_from_amounts, 1), 0) <> v_n
    OR coalesce(array_length(p_to_amounts, 1), 0) <> v_n OR coalesce(array_length(p_fees, 1), 0) <> v_n
    OR coalesce(array_length(p_fee_currencies, 1), 0) <> v_n OR coalesce(array_length(p_rates, 1), 0) <> v_n
    OR coalesce(array_length(p_mid_rates, 1), 0) <> v_n OR coalesce(array_length(p_spread_bps, 1), 0) <> v_n
    OR coalesce(array_length(p_fee_bps, 1), 0) <> v_n OR coalesce(array_length(p_pair_sigs, 1), 0) <> v_n) THEN
    RAISE EXCEPTION 'coffer_swap_batch: argument arrays of different lengths' USING ERRCODE = 'CB900';
  END IF;
  IF v_n = 0 THEN
    RETURN;
  END IF;

  -- 1. Every item's user (its session, of an account not disabled), and the sessions whose
  -- last_seen_at is due.
  -- Every lookup of this function is a LATERAL ... LIMIT 1 by key (as coffer_transfer_batch()'s):
  -- a plain join let a generic plan made on a fresh database (no statistics) scan all users or
  -- all available accounts for every batch (migration 0028).
  SELECT array_agg(s.user_id ORDER BY x.i), coalesce(array_agg(DISTINCT s.id) FILTER (WHERE s.due), '{}'),
         coalesce(array_agg(x.i::integer) FILTER (WHERE s.step_up AND NOT coalesce(p_stepped[x.i], false)), '{}')
  INTO v_user, v_seen_due, v_stepup
  FROM unnest(p_tokens) WITH ORDINALITY AS x(token, i)
  LEFT JOIN LATERAL (
    SELECT s.id, s.user_id, (s.last_seen_at IS NULL OR s.last_seen_at < now() - interval '60 seconds') AS due,
           u.step_up_swaps AND EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS step_up
    FROM sessions s JOIN users u ON u.id = s.user_id AND u.disabled_at IS NULL
    WHERE s.token_hash = x.token AND s.revoked_at IS NULL AND s.expires_at > now() LIMIT 1
  ) s ON true;
  IF array_length(v_seen_due, 1) > 0 THEN
    UPDATE sessions s SET last_seen_at = now()
    WHERE s.id = ANY (v_seen_due) AND (s.last_seen_at IS NULL OR s.last_seen_at < now() - interval '60 seconds');
  END IF;

  -- The items priced with a pair that has changed since (checked once per pair of the batch).
  IF EXISTS (SELECT 1 FROM unnest(p_pair_sigs) g WHERE g IS NOT NULL) THEN
    WITH d AS MATERIALIZED (
      SELECT z.fc, z.tc, z.sig, coffer_swap_pair_signature(z.fc, z.tc) IS NOT DISTINCT FROM z.sig AS same
      FROM (SELECT DISTINCT y.fc, y.tc, y.sig FROM unnest(p_from_currencies, p_to_currencies, p_pair_sigs) AS y(fc, tc, sig)
            WHERE y.sig IS NOT NULL) z)
    SELECT coalesce(array_agg(x.i::integer), '{}') INTO v_stale
    FROM unnest(p_from_currencies, p_to_currencies, p_pair_sigs) WITH ORDINALITY AS x(fc, tc, sig, i)
    JOIN d ON d.fc = x.fc AND d.tc = x.tc AND d.sig = x.sig
    WHERE NOT d.same;
  END IF;

  -- 2. The known currencies of the batch with their house and fees accounts (once each), then
  -- both user accounts of every item with a user and two known currencies (the others are
  -- refused by coffer_swap_apply(), which names why) and whether its key is taken already
  -- (replays and reused keys take the careful path).
  SELECT coalesce(array_agg(c.id), '{}'), coalesce(array_agg(h.id), '{}'), coalesce(array_agg(f.id), '{}')
  INTO v_cur, v_cur_house, v_cur_fees
  FROM (SELECT DISTINCT y.id FROM unnest(p_from_currencies || p_to_currencies) AS y(id)) d
  JOIN LATERAL (SELECT c.id FROM currencies c WHERE c.id = d.id LIMIT 1) c ON true
  LEFT JOIN LATERAL (
    SELECT h.id FROM accounts h WHERE h.user_id IS NULL AND h.currency_id = d.id AND h.kind = 'house' LIMIT 1
  ) h ON true
  LEFT JOIN LATERAL (
    SELECT f.id FROM accounts f WHERE f.user_id IS NULL AND f.currency_id = d.id AND f.kind = 'fees' LIMIT 1
  ) f ON true;
  SELECT array_agg(uf.id ORDER BY x.i), array_agg(ut.id ORDER BY x.i),
         array_agg(x.u IS NOT NULL AND x.fc <> x.tc AND x.ec IN (x.fc, x.tc) AND x.fc = ANY (v_cur)
                   AND x.tc = ANY (v_cur) ORDER BY x.i),
         array_agg(x.k IS NOT NULL AND EXISTS (
           SELECT 1 FROM journal_entries e WHERE e.user_id = x.u AND e.idempotency_key = x.k) ORDER BY x.i)
  INTO v_uf, v_ut, v_known, v_taken
  FROM unnest(v_user, p_keys, p_from_currencies, p_to_currencies, p_fee_currencies) WITH ORDINALITY AS x(u, k, fc, tc, ec, i)
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE a.user_id = x.u AND a.currency_id = x.fc AND a.kind = 'available' LIMIT 1
  ) uf ON true
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE a.user_id = x.u AND a.currency_id = x.tc AND a.kind = 'available' LIMIT 1
  ) ut ON true;
  v_hf := array_fill(NULL::bigint, ARRAY[v_n]);
  v_ht := array_fill(NULL::bigint, ARRAY[v_n]);
  v_fe := array_fill(NULL::bigint, ARRAY[v_n]);
  FOR i IN 1..v_n LOOP
    IF NOT coalesce(v_known[i], false) THEN
      CONTINUE;
    END IF;
    v_kf := array_position(v_cur, p_from_currencies[i]);
    v_kt := array_position(v_cur, p_to_currencies[i]);
    -- An account nobody has yet (a user's first swap into a currency, a new pair's house) is opened here.
    IF v_cur_house[v_kf] IS NULL THEN
      v_cur_house[v_kf] := swap_system_account(p_from_currencies[i], 'house');
    END IF;
    IF v_cur_house[v_kt] IS NULL THEN
      v_cur_house[v_kt] := swap_system_account(p_to_currencies[i], 'house');
    END IF;
    v_hf[i] := v_cur_house[v_kf];
    v_ht[i] := v_cur_house[v_kt];
    IF p_fees[i] > 0 THEN
      v_kf := array_position(v_cur, p_fee_currencies[i]);
      IF v_cur_fees[v_kf] IS NULL THEN
        v_cur_fees[v_kf] := swap_system_account(p_fee_currencies[i], 'fees');
      END IF;
      v_fe[i] := v_cur_fees[v_kf];
    END IF;
    IF v_uf[i] IS NULL THEN
      v_uf[i] := ledger_account(v_user[i], p_from_currencies[i], 'available');
    END IF;
    IF v_ut[i] IS NULL THEN
      v_ut[i] := ledger_account(v_user[i], p_to_currencies[i], 'available');
    END IF;
  END LOOP;

  -- 3. All locks at once, in id order, with the balances they protect.
  SELECT coalesce(array_agg(a.id ORDER BY a.id), '{}'), coalesce(array_agg(a.balance ORDER BY a.id), '{}'),
         coalesce(array_agg(a.min_balance ORDER BY a.id), '{}')
  INTO v_acc, v_bal, v_floor
  FROM (SELECT id, balance, min_balance FROM accounts WHERE id = ANY (v_uf || v_hf || v_ht || v_ut || v_fe)
        ORDER BY id FOR UPDATE) a;
  v_delta := array_fill(0::numeric, ARRAY[coalesce(array_length(v_acc, 1), 0)]);

  -- 4. The quotes that hold (coffer_swap_apply()'s condition), locked after the accounts.
  IF EXISTS (SELECT 1 FROM unnest(p_quotes) q WHERE q IS NOT NULL) THEN
    SELECT coalesce(array_agg(z.i::integer), '{}') INTO v_quote_ok
    FROM (SELECT x.i FROM unnest(v_user, p_quotes, p_from_currencies, p_to_currencies, p_from_amounts, p_to_amounts,
                                 p_fees, p_fee_currencies) WITH ORDINALITY AS x(u, q, fc, tc, fa, ta, fee, ec, i)
          JOIN LATERAL (
            SELECT q.id FROM swap_quotes q
            WHERE q.id = x.q AND q.user_id = x.u AND q.used_at IS NULL AND q.expires_at > now()
              AND q.from_currency_id = x.fc AND q.to_currency_id = x.tc AND q.from_amount = x.fa
              AND q.to_amount = x.ta AND q.fee = x.fee AND q.fee_currency_id = x.ec
            LIMIT 1 FOR UPDATE
          ) q ON true) z;
  END IF;

  -- 5. The batch in order on those balances: which items are clean, and their rows.
  FOR i IN 1..v_n LOOP
    v_fa := p_from_amounts[i];
    v_ta := p_to_amounts[i];
    v_fee := p_fees[i];
    -- coffer_swap_apply()'s argument check, amounts NUMERIC(38,18) stores as they are, a fresh
    -- key and a good quote, neither repeated in the batch. coalesce: a NULL anywhere (a missing
    -- value) makes the item careful, never clean.
    v_ok := coalesce(v_known[i] AND NOT v_taken[i] AND NOT (i = ANY (v_stale)) AND NOT (i = ANY (v_stepup))
      AND v_fa > 0 AND v_ta > 0 AND v_fee >= 0
      AND NOT (p_fee_currencies[i] = p_from_currencies[i] AND v_fee >= v_fa)
      AND v_fa < 1e20 AND v_ta < 1e20 AND v_fee < 1e20
      AND v_fa = round(v_fa, 18) AND v_ta = round(v_ta, 18) AND v_fee = round(v_fee, 18)
      AND abs(p_rates[i]) < 1e20 AND abs(p_mid_rates[i]) < 1e20
      AND p_spread_bps[i] IS NOT NULL AND p_fee_bps[i] IS NOT NULL
      AND (p_keys[i] IS NULL OR NOT ((v_user[i] || ':' || p_keys[i]) = ANY (v_keys_seen)))
      AND (p_quotes[i] IS NULL OR (i = ANY (v_quote_ok) AND NOT (p_quotes[i] = ANY (v_quotes_seen)))), false);
    IF v_ok THEN
      -- user(from) -> house(from), house(to) -> user(to), the fee to the fees account from
      -- whichever side the pair's policy names (coffer_swap_apply()'s postings, in its order).
      v_k := ARRAY[array_position(v_acc, v_uf[i]), array_position(v_acc, v_hf[i]),
                   array_position(v_acc, v_ht[i]), array_position(v_acc, v_ut[i])];
      IF p_fee_currencies[i] = p_to_currencies[i] THEN
        v_amt := ARRAY[-v_fa, v_fa, -(v_ta + v_fee), v_ta];
      ELSE
        v_amt := ARRAY[-v_fa, v_fa - v_fee, -v_ta, v_ta];
      END IF;
      IF v_fee > 0 THEN
        v_k := v_k || array_position(v_acc, v_fe[i]);
        v_amt := v_amt || v_fee;
      END IF;
      v_m := array_length(v_k, 1);
      -- Invariant: the postings sum to zero per currency.
      IF v_amt[1] + v_amt[2] + (CASE WHEN p_fee_currencies[i] = p_from_currencies[i] THEN v_fee ELSE 0 END) <> 0
         OR v_amt[3] + v_amt[4] + (CASE WHEN p_fee_currencies[i] = p_to_currencies[i] THEN v_fee ELSE 0 END) <> 0 THEN
        RAISE EXCEPTION 'coffer_swap_batch: item % does not sum to zero', i USING ERRCODE = 'CB900';
      END IF;
      FOR j IN 1..v_m LOOP
        v_after := v_bal[v_k[j]] + v_amt[j];
        -- A NULL position (an account not locked) or a posting past a floor or NUMERIC(38,18)
        -- leaves the item to coffer_swap_apply(), which refuses it with the right SQLSTATE.
        IF NOT coalesce(v_amt[j] <> 0 AND abs(v_after) < 1e20
                        AND (v_floor[v_k[j]] IS NULL OR v_after >= v_floor[v_k[j]]), false) THEN
          v_ok := false;
          EXIT;
        END IF;
      END LOOP;
    END IF;
    v_clean[i] := v_ok;
    IF NOT v_ok THEN
      CONTINUE;
    END IF;
    IF p_keys[i] IS NOT NULL THEN
      v_keys_seen := v_keys_seen || (v_user[i] || ':' || p_keys[i]);
    END IF;
    IF p_quotes[i] IS NOT NULL THEN
      v_quotes_seen := v_quotes_seen || p_quotes[i];
    END IF;
    v_entry[i] := nextval('journal_entries_id_seq'::regclass);
    v_swap[i] := nextval('swaps_id_seq'::regclass);
    FOR j IN 1..v_m LOOP
      v_bal[v_k[j]] := v_bal[v_k[j]] + v_amt[j];
      v_delta[v_k[j]] := v_delta[v_k[j]] + v_amt[j];
      -- Posting ids are taken here, in item order, so each account's balance_after chain follows id order.
      v_p_id := v_p_id || nextval('postings_id_seq'::regclass);
      v_p_entry := v_p_entry || v_entry[i];
      v_p_acc := v_p_acc || v_acc[v_k[j]];
      v_p_cur := v_p_cur || CASE WHEN j IN (1, 2) THEN p_from_currencies[i]
                                 WHEN j IN (3, 4) THEN p_to_currencies[i]
                                 ELSE p_fee_currencies[i] END;
      v_p_amount := v_p_amount || v_amt[j];
      v_p_after := v_p_after || v_bal[v_k[j]];
    END LOOP;
    v_s_item := v_s_item || i;
  END LOOP;

  -- 6. The clean items, one statement per table.
  IF array_length(v_s_item, 1) > 0 THEN
    -- A key may have been taken since step 2 by a batch of another process (a twin sent to
    -- both): this statement then fails as a serialization failure and the writer runs its items
    -- again, when the twin is a replay (the careful path).
    INSERT INTO journal_entries (id, kind, user_id, idempotency_key, request_hash)
    SELECT v_entry[x.i], 'swap', v_user[x.i], p_keys[x.i], p_hashes[x.i] FROM unnest(v_s_item) AS x(i)
    ON CONFLICT (user_id, idempotency_key) DO NOTHING;
    GET DIAGNOSTICS v_updated = ROW_COUNT;
    IF v_updated <> array_length(v_s_item, 1) THEN
      RAISE EXCEPTION 'coffer_swap_batch: an Idempotency-Key of the batch was taken meanwhile' USING ERRCODE = '40001';
    END IF;
    INSERT INTO postings (id, entry_id, account_id, currency_id, amount, balance_after)
    SELECT * FROM unnest(v_p_id, v_p_entry, v_p_acc, v_p_cur, v_p_amount, v_p_after);
    -- Invariant: the batch's postings sum to zero per currency.
    IF EXISTS (SELECT 1 FROM unnest(v_p_cur, v_p_amount) AS p(c, a) GROUP BY p.c HAVING sum(p.a) <> 0) THEN
      RAISE EXCEPTION 'coffer_swap_batch: postings do not sum to zero' USING ERRCODE = 'CB900';
    END IF;
    SELECT count(*) INTO v_changed FROM unnest(v_delta) d WHERE d <> 0;
    UPDATE accounts a SET balance = a.balance + d.delta
    FROM unnest(v_acc, v_delta) AS d(id, delta)
    WHERE a.id = d.id AND d.delta <> 0;
    GET DIAGNOSTICS v_updated = ROW_COUNT;
    IF v_updated <> v_changed THEN
      RAISE EXCEPTION 'coffer_swap_batch: % accounts changed, % updated', v_changed, v_updated USING ERRCODE = 'CB900';
    END IF;
    IF array_length(v_quotes_seen, 1) > 0 THEN
      UPDATE swap_quotes q SET used_at = now() WHERE q.id = ANY (v_quotes_seen);
      GET DIAGNOSTICS v_updated = ROW_COUNT;
      IF v_updated <> array_length(v_quotes_seen, 1) THEN
        RAISE EXCEPTION 'coffer_swap_batch: % quotes used, % updated', array_length(v_quotes_seen, 1), v_updated
          USING ERRCODE = 'CB900';
      END IF;
    END IF;
    INSERT INTO swaps (id, entry_id, user_id, quote_id, from_currency_id, to_currency_id, from_amount, to_amount,
                       rate, mid_rate, spread_bps, fee_bps, fee, fee_currency_id)
    SELECT v_swap[x.i], v_entry[x.i], v_user[x.i], p_quotes[x.i], p_from_currencies[x.i], p_to_currencies[x.i],
           p_from_amounts[x.i], p_to_amounts[x.i], p_rates[x.i], p_mid_rates[x.i], p_spread_bps[x.i], p_fee_bps[x.i],
           p_fees[x.i], p_fee_currencies[x.i]
    FROM unnest(v_s_item) AS x(i);
    RETURN QUERY
      SELECT x.i::integer, NULL::text, v_user[x.i], v_swap[x.i], false, false, v_entry[x.i], now()
      FROM unnest(v_s_item) AS x(i);
  END IF;

  -- 7. Every other item on its own, as if it had arrived after the clean ones.
  FOR i IN 1..v_n LOOP
    IF v_clean[i] THEN
      CONTINUE;
    END IF;
    IF v_user[i] IS NULL THEN
      RETURN QUERY SELECT i, 'AUTH'::text, NULL::bigint, NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
      CONTINUE;
    END IF;
    -- Not kept under the key (the same request with a second factor is good), unless the key
    -- has its answer already: a replay moves nothing (coffer_swap_apply()).
    IF i = ANY (v_stepup) AND NOT coalesce(v_taken[i], false) THEN
      RETURN QUERY SELECT i, 'STEPUP'::text, v_user[i], NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
      CONTINUE;
    END IF;
    IF i = ANY (v_stale) THEN
      RETURN QUERY SELECT i, 'PAIR'::text, v_user[i], NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
      CONTINUE;
    END IF;
    BEGIN
      RETURN QUERY SELECT i, NULL::text, v_user[i], s.* FROM coffer_swap_apply(v_user[i], p_keys[i], p_hashes[i],
        p_quotes[i], p_from_currencies[i], p_to_currencies[i], p_from_amounts[i], p_to_amounts[i], p_fees[i],
        p_fee_currencies[i], p_rates[i], p_mid_rates[i], p_spread_bps[i], p_fee_bps[i],
        v_uf[i], v_hf[i], v_ht[i], v_ut[i], v_fe[i]) s;
    EXCEPTION WHEN OTHERS THEN
      v_state := SQLSTATE;
      IF p_keys[i] IS NOT NULL AND ledger_refusal_kept(v_state) THEN
        BEGIN
          v_state := ledger_keep_refusal('swap', v_user[i], p_keys[i], p_hashes[i], v_state);
        EXCEPTION WHEN OTHERS THEN
          v_state := SQLSTATE;
        END;
      END IF;
      RETURN QUERY SELECT i, v_state, v_user[i], NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
    END;
  END LOOP;
END $function$
;

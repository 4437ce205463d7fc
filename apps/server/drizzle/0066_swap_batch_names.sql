-- coffer_swap_batch() with local names that say what they hold (decision 063): v_uf, v_hf, v_ht,
-- v_ut, v_fe are the items' user-from, house-from, house-to, user-to and fees accounts; v_acc,
-- v_bal, v_floor, v_delta the locked accounts with their balances, floors and changes; v_k,
-- v_amt one item's posting slots and amounts. The same statements in the same order; the
-- signature, its comment and its grants are unchanged (CREATE OR REPLACE keeps them).
CREATE OR REPLACE FUNCTION public.coffer_swap_batch(p_tokens text[], p_keys text[], p_hashes text[], p_quotes bigint[], p_from_currencies integer[], p_to_currencies integer[], p_from_amounts numeric[], p_to_amounts numeric[], p_fees numeric[], p_fee_currencies integer[], p_rates numeric[], p_mid_rates numeric[], p_spread_bps integer[], p_fee_bps integer[], p_pair_sigs text[], p_stepped boolean[] DEFAULT NULL::boolean[])
 RETURNS TABLE(b_i integer, b_state text, b_user bigint, swap_id bigint, replayed boolean, key_conflict boolean, s_entry bigint, s_created timestamp with time zone)
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_item_count integer := coalesce(array_length(p_tokens, 1), 0);
  -- Per item (index i).
  v_item_user bigint[];
  -- The items refused by the step-up policy (decision 033): the user opted in to a second factor
  -- on swaps, has two-factor on, and the caller checked none for the item.
  v_stepup_items integer[];
  v_sessions_due bigint[];
  v_user_from_account bigint[];
  v_house_from_account bigint[];
  v_house_to_account bigint[];
  v_user_to_account bigint[];
  v_fees_account bigint[];
  v_item_known boolean[];
  -- Per known currency of the batch (index c).
  v_batch_currencies integer[];
  v_currency_house_account bigint[];
  v_currency_fees_account bigint[];
  v_from_index integer;
  v_to_index integer;
  v_fee_index integer;
  v_key_taken boolean[];
  v_quote_ok_items integer[] := '{}';
  v_stale_items integer[] := '{}';
  v_item_clean boolean[] := '{}';
  v_item_entry bigint[] := '{}';
  v_item_swap bigint[] := '{}';
  -- Per locked account (index k, id order).
  v_locked_accounts bigint[];
  v_locked_balances numeric[];
  v_locked_floors numeric[];
  v_locked_deltas numeric[];
  -- The clean items' rows, in item order.
  v_posting_ids bigint[] := '{}';
  v_posting_entries bigint[] := '{}';
  v_posting_accounts bigint[] := '{}';
  v_posting_currencies integer[] := '{}';
  v_posting_amounts numeric[] := '{}';
  v_posting_balances_after numeric[] := '{}';
  v_clean_items integer[] := '{}';
  v_keys_seen text[] := '{}';
  v_quotes_seen bigint[] := '{}';
  -- One item's postings (user from, house from, house to, user to, fees): each one's position
  -- in the locked accounts, and the amount it moves.
  v_posting_slots integer[];
  v_posting_deltas numeric[];
  v_posting_count integer;
  v_balance_after numeric;
  v_item_ok boolean;
  v_from_amount numeric;
  v_to_amount numeric;
  v_fee_amount numeric;
  v_accounts_changed integer;
  v_rows_updated integer;
  v_refusal_state text;
BEGIN
  IF v_item_count > 50 THEN
    RAISE EXCEPTION 'coffer_swap_batch: % items, at most 50', v_item_count USING ERRCODE = 'CB900';
  END IF;
  IF v_item_count > 0 AND (
       coalesce(array_length(p_keys, 1), 0) <> v_item_count
    OR coalesce(array_length(p_hashes, 1), 0) <> v_item_count
    OR coalesce(array_length(p_quotes, 1), 0) <> v_item_count
    OR coalesce(array_length(p_from_currencies, 1), 0) <> v_item_count
    OR coalesce(array_length(p_to_currencies, 1), 0) <> v_item_count
    OR coalesce(array_length(p_from_amounts, 1), 0) <> v_item_count
    OR coalesce(array_length(p_to_amounts, 1), 0) <> v_item_count
    OR coalesce(array_length(p_fees, 1), 0) <> v_item_count
    OR coalesce(array_length(p_fee_currencies, 1), 0) <> v_item_count
    OR coalesce(array_length(p_rates, 1), 0) <> v_item_count
    OR coalesce(array_length(p_mid_rates, 1), 0) <> v_item_count
    OR coalesce(array_length(p_spread_bps, 1), 0) <> v_item_count
    OR coalesce(array_length(p_fee_bps, 1), 0) <> v_item_count
    OR coalesce(array_length(p_pair_sigs, 1), 0) <> v_item_count) THEN
    RAISE EXCEPTION 'coffer_swap_batch: argument arrays of different lengths' USING ERRCODE = 'CB900';
  END IF;
  IF v_item_count = 0 THEN
    RETURN;
  END IF;
  -- What is received rounds down, the fee up, to each currency's display precision, before
  -- any check (coffer_swap_apply() does the same; docs/decisions/053-one-amount-one-reference.md).
  SELECT array_agg(coffer_round_places(x.ta, x.tc, false) ORDER BY x.i),
         array_agg(coffer_round_places(x.fee, x.ec, true) ORDER BY x.i)
  INTO p_to_amounts, p_fees
  FROM unnest(p_to_amounts, p_fees, p_to_currencies, p_fee_currencies) WITH ORDINALITY AS x(ta, fee, tc, ec, i);

  -- 1. Every item's user (its session, of an account not disabled), and the sessions whose
  -- last_seen_at is due.
  -- Every lookup of this function is a LATERAL ... LIMIT 1 by key (as coffer_transfer_batch()'s):
  -- a plain join let a generic plan made on a fresh database (no statistics) scan all users or
  -- all available accounts for every batch (migration 0028).
  SELECT array_agg(s.user_id ORDER BY x.i), coalesce(array_agg(DISTINCT s.id) FILTER (WHERE s.due), '{}'),
         coalesce(array_agg(x.i::integer) FILTER (WHERE s.step_up AND NOT coalesce(p_stepped[x.i], false)), '{}')
  INTO v_item_user, v_sessions_due, v_stepup_items
  FROM unnest(p_tokens) WITH ORDINALITY AS x(token, i)
  LEFT JOIN LATERAL (
    SELECT s.id, s.user_id, (s.last_seen_at IS NULL OR s.last_seen_at < now() - interval '60 seconds') AS due,
           u.step_up_swaps AND EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS step_up
    FROM sessions s JOIN users u ON u.id = s.user_id AND u.disabled_at IS NULL
    WHERE s.token_hash = x.token AND s.revoked_at IS NULL AND s.expires_at > now() LIMIT 1
  ) s ON true;
  IF array_length(v_sessions_due, 1) > 0 THEN
    UPDATE sessions s SET last_seen_at = now()
    WHERE s.id = ANY (v_sessions_due) AND (s.last_seen_at IS NULL OR s.last_seen_at < now() - interval '60 seconds');
  END IF;

  -- The items priced with a pair that has changed since (checked once per pair of the batch).
  IF EXISTS (SELECT 1 FROM unnest(p_pair_sigs) g WHERE g IS NOT NULL) THEN
    WITH d AS MATERIALIZED (
      SELECT z.fc, z.tc, z.sig, coffer_swap_pair_signature(z.fc, z.tc) IS NOT DISTINCT FROM z.sig AS same
      FROM (SELECT DISTINCT y.fc, y.tc, y.sig FROM unnest(p_from_currencies, p_to_currencies, p_pair_sigs) AS y(fc, tc, sig)
            WHERE y.sig IS NOT NULL) z)
    SELECT coalesce(array_agg(x.i::integer), '{}') INTO v_stale_items
    FROM unnest(p_from_currencies, p_to_currencies, p_pair_sigs) WITH ORDINALITY AS x(fc, tc, sig, i)
    JOIN d ON d.fc = x.fc AND d.tc = x.tc AND d.sig = x.sig
    WHERE NOT d.same;
  END IF;

  -- 2. The known currencies of the batch with their house and fees accounts (once each), then
  -- both user accounts of every item with a user and two known currencies (the others are
  -- refused by coffer_swap_apply(), which names why) and whether its key is taken already
  -- (replays and reused keys take the careful path).
  SELECT coalesce(array_agg(c.id), '{}'), coalesce(array_agg(h.id), '{}'), coalesce(array_agg(f.id), '{}')
  INTO v_batch_currencies, v_currency_house_account, v_currency_fees_account
  FROM (SELECT DISTINCT y.id FROM unnest(p_from_currencies || p_to_currencies) AS y(id)) d
  JOIN LATERAL (SELECT c.id FROM currencies c WHERE c.id = d.id LIMIT 1) c ON true
  LEFT JOIN LATERAL (
    SELECT h.id FROM accounts h WHERE h.user_id IS NULL AND h.network_id IS NULL AND h.currency_id = d.id AND h.kind = 'house' LIMIT 1
  ) h ON true
  LEFT JOIN LATERAL (
    SELECT f.id FROM accounts f WHERE f.user_id IS NULL AND f.network_id IS NULL AND f.currency_id = d.id AND f.kind = 'fees' LIMIT 1
  ) f ON true;
  SELECT array_agg(user_from.id ORDER BY x.i), array_agg(user_to.id ORDER BY x.i),
         array_agg(x.u IS NOT NULL AND x.fc <> x.tc AND x.ec IN (x.fc, x.tc) AND x.fc = ANY (v_batch_currencies)
                   AND x.tc = ANY (v_batch_currencies) ORDER BY x.i),
         array_agg(x.k IS NOT NULL AND EXISTS (
           SELECT 1 FROM journal_entries e WHERE e.user_id = x.u AND e.idempotency_key = x.k) ORDER BY x.i)
  INTO v_user_from_account, v_user_to_account, v_item_known, v_key_taken
  FROM unnest(v_item_user, p_keys, p_from_currencies, p_to_currencies, p_fee_currencies) WITH ORDINALITY AS x(u, k, fc, tc, ec, i)
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE a.user_id = x.u AND a.currency_id = x.fc AND a.kind = 'available' LIMIT 1
  ) user_from ON true
  LEFT JOIN LATERAL (
    SELECT a.id FROM accounts a WHERE a.user_id = x.u AND a.currency_id = x.tc AND a.kind = 'available' LIMIT 1
  ) user_to ON true;
  v_house_from_account := array_fill(NULL::bigint, ARRAY[v_item_count]);
  v_house_to_account := array_fill(NULL::bigint, ARRAY[v_item_count]);
  v_fees_account := array_fill(NULL::bigint, ARRAY[v_item_count]);
  FOR i IN 1..v_item_count LOOP
    IF NOT coalesce(v_item_known[i], false) THEN
      CONTINUE;
    END IF;
    v_from_index := array_position(v_batch_currencies, p_from_currencies[i]);
    v_to_index := array_position(v_batch_currencies, p_to_currencies[i]);
    -- An account nobody has yet (a user's first swap into a currency, a new pair's house) is opened here.
    IF v_currency_house_account[v_from_index] IS NULL THEN
      v_currency_house_account[v_from_index] := swap_system_account(p_from_currencies[i], 'house');
    END IF;
    IF v_currency_house_account[v_to_index] IS NULL THEN
      v_currency_house_account[v_to_index] := swap_system_account(p_to_currencies[i], 'house');
    END IF;
    v_house_from_account[i] := v_currency_house_account[v_from_index];
    v_house_to_account[i] := v_currency_house_account[v_to_index];
    IF p_fees[i] > 0 THEN
      v_fee_index := array_position(v_batch_currencies, p_fee_currencies[i]);
      IF v_currency_fees_account[v_fee_index] IS NULL THEN
        v_currency_fees_account[v_fee_index] := swap_system_account(p_fee_currencies[i], 'fees');
      END IF;
      v_fees_account[i] := v_currency_fees_account[v_fee_index];
    END IF;
    IF v_user_from_account[i] IS NULL THEN
      v_user_from_account[i] := ledger_account(v_item_user[i], p_from_currencies[i], 'available');
    END IF;
    IF v_user_to_account[i] IS NULL THEN
      v_user_to_account[i] := ledger_account(v_item_user[i], p_to_currencies[i], 'available');
    END IF;
  END LOOP;

  -- 3. All locks at once, in id order, with the balances they protect.
  SELECT coalesce(array_agg(a.id ORDER BY a.id), '{}'), coalesce(array_agg(a.balance ORDER BY a.id), '{}'),
         coalesce(array_agg(a.min_balance ORDER BY a.id), '{}')
  INTO v_locked_accounts, v_locked_balances, v_locked_floors
  FROM (SELECT id, balance, min_balance FROM accounts
        WHERE id = ANY (v_user_from_account || v_house_from_account || v_house_to_account || v_user_to_account
                        || v_fees_account)
        ORDER BY id FOR UPDATE) a;
  v_locked_deltas := array_fill(0::numeric, ARRAY[coalesce(array_length(v_locked_accounts, 1), 0)]);

  -- 4. The quotes that hold (coffer_swap_apply()'s condition), locked after the accounts.
  IF EXISTS (SELECT 1 FROM unnest(p_quotes) q WHERE q IS NOT NULL) THEN
    SELECT coalesce(array_agg(z.i::integer), '{}') INTO v_quote_ok_items
    FROM (SELECT x.i FROM unnest(v_item_user, p_quotes, p_from_currencies, p_to_currencies, p_from_amounts, p_to_amounts,
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
  FOR i IN 1..v_item_count LOOP
    v_from_amount := p_from_amounts[i];
    v_to_amount := p_to_amounts[i];
    v_fee_amount := p_fees[i];
    -- coffer_swap_apply()'s argument check, amounts NUMERIC(38,18) stores as they are, a fresh
    -- key and a good quote, neither repeated in the batch. coalesce: a NULL anywhere (a missing
    -- value) makes the item careful, never clean.
    v_item_ok := coalesce(v_item_known[i] AND NOT v_key_taken[i]
      AND NOT (i = ANY (v_stale_items)) AND NOT (i = ANY (v_stepup_items))
      AND v_from_amount > 0 AND v_to_amount > 0 AND v_fee_amount >= 0
      AND NOT (p_fee_currencies[i] = p_from_currencies[i] AND v_fee_amount >= v_from_amount)
      AND v_from_amount < 1e20 AND v_to_amount < 1e20 AND v_fee_amount < 1e20
      AND v_from_amount = round(v_from_amount, 18) AND v_to_amount = round(v_to_amount, 18)
      AND v_fee_amount = round(v_fee_amount, 18)
      AND abs(p_rates[i]) < 1e20 AND abs(p_mid_rates[i]) < 1e20
      AND p_spread_bps[i] IS NOT NULL AND p_fee_bps[i] IS NOT NULL
      AND (p_keys[i] IS NULL OR NOT ((v_item_user[i] || ':' || p_keys[i]) = ANY (v_keys_seen)))
      AND (p_quotes[i] IS NULL OR (i = ANY (v_quote_ok_items) AND NOT (p_quotes[i] = ANY (v_quotes_seen)))), false);
    IF v_item_ok THEN
      -- user(from) -> house(from), house(to) -> user(to), the fee to the fees account from
      -- whichever side the pair's policy names (coffer_swap_apply()'s postings, in its order).
      v_posting_slots := ARRAY[array_position(v_locked_accounts, v_user_from_account[i]),
                               array_position(v_locked_accounts, v_house_from_account[i]),
                               array_position(v_locked_accounts, v_house_to_account[i]),
                               array_position(v_locked_accounts, v_user_to_account[i])];
      IF p_fee_currencies[i] = p_to_currencies[i] THEN
        v_posting_deltas := ARRAY[-v_from_amount, v_from_amount, -(v_to_amount + v_fee_amount), v_to_amount];
      ELSE
        v_posting_deltas := ARRAY[-v_from_amount, v_from_amount - v_fee_amount, -v_to_amount, v_to_amount];
      END IF;
      IF v_fee_amount > 0 THEN
        v_posting_slots := v_posting_slots || array_position(v_locked_accounts, v_fees_account[i]);
        v_posting_deltas := v_posting_deltas || v_fee_amount;
      END IF;
      v_posting_count := array_length(v_posting_slots, 1);
      -- Invariant: the postings sum to zero per currency.
      IF v_posting_deltas[1] + v_posting_deltas[2]
           + (CASE WHEN p_fee_currencies[i] = p_from_currencies[i] THEN v_fee_amount ELSE 0 END) <> 0
         OR v_posting_deltas[3] + v_posting_deltas[4]
           + (CASE WHEN p_fee_currencies[i] = p_to_currencies[i] THEN v_fee_amount ELSE 0 END) <> 0 THEN
        RAISE EXCEPTION 'coffer_swap_batch: item % does not sum to zero', i USING ERRCODE = 'CB900';
      END IF;
      FOR j IN 1..v_posting_count LOOP
        v_balance_after := v_locked_balances[v_posting_slots[j]] + v_posting_deltas[j];
        -- A NULL position (an account not locked) or a posting past a floor or NUMERIC(38,18)
        -- leaves the item to coffer_swap_apply(), which refuses it with the right SQLSTATE.
        IF NOT coalesce(v_posting_deltas[j] <> 0 AND abs(v_balance_after) < 1e20
                        AND (v_locked_floors[v_posting_slots[j]] IS NULL
                             OR v_balance_after >= v_locked_floors[v_posting_slots[j]]), false) THEN
          v_item_ok := false;
          EXIT;
        END IF;
      END LOOP;
    END IF;
    v_item_clean[i] := v_item_ok;
    IF NOT v_item_ok THEN
      CONTINUE;
    END IF;
    IF p_keys[i] IS NOT NULL THEN
      v_keys_seen := v_keys_seen || (v_item_user[i] || ':' || p_keys[i]);
    END IF;
    IF p_quotes[i] IS NOT NULL THEN
      v_quotes_seen := v_quotes_seen || p_quotes[i];
    END IF;
    v_item_entry[i] := nextval('journal_entries_id_seq'::regclass);
    v_item_swap[i] := nextval('swaps_id_seq'::regclass);
    FOR j IN 1..v_posting_count LOOP
      v_locked_balances[v_posting_slots[j]] := v_locked_balances[v_posting_slots[j]] + v_posting_deltas[j];
      v_locked_deltas[v_posting_slots[j]] := v_locked_deltas[v_posting_slots[j]] + v_posting_deltas[j];
      -- Posting ids are taken here, in item order, so each account's balance_after chain follows id order.
      v_posting_ids := v_posting_ids || nextval('postings_id_seq'::regclass);
      v_posting_entries := v_posting_entries || v_item_entry[i];
      v_posting_accounts := v_posting_accounts || v_locked_accounts[v_posting_slots[j]];
      v_posting_currencies := v_posting_currencies || CASE WHEN j IN (1, 2) THEN p_from_currencies[i]
                                 WHEN j IN (3, 4) THEN p_to_currencies[i]
                                 ELSE p_fee_currencies[i] END;
      v_posting_amounts := v_posting_amounts || v_posting_deltas[j];
      v_posting_balances_after := v_posting_balances_after || v_locked_balances[v_posting_slots[j]];
    END LOOP;
    v_clean_items := v_clean_items || i;
  END LOOP;

  -- 6. The clean items, one statement per table.
  IF array_length(v_clean_items, 1) > 0 THEN
    -- A key may have been taken since step 2 by a batch of another process (a twin sent to
    -- both): this statement then fails as a serialization failure and the writer runs its items
    -- again, when the twin is a replay (the careful path).
    INSERT INTO journal_entries (id, kind, user_id, idempotency_key, request_hash)
    SELECT v_item_entry[x.i], 'swap', v_item_user[x.i], p_keys[x.i], p_hashes[x.i] FROM unnest(v_clean_items) AS x(i)
    ON CONFLICT (user_id, idempotency_key) DO NOTHING;
    GET DIAGNOSTICS v_rows_updated = ROW_COUNT;
    IF v_rows_updated <> array_length(v_clean_items, 1) THEN
      RAISE EXCEPTION 'coffer_swap_batch: an Idempotency-Key of the batch was taken meanwhile' USING ERRCODE = '40001';
    END IF;
    INSERT INTO postings (id, entry_id, account_id, currency_id, amount, balance_after)
    SELECT * FROM unnest(v_posting_ids, v_posting_entries, v_posting_accounts, v_posting_currencies, v_posting_amounts,
                         v_posting_balances_after);
    -- Invariant: the batch's postings sum to zero per currency.
    IF EXISTS (SELECT 1 FROM unnest(v_posting_currencies, v_posting_amounts) AS p(c, a) GROUP BY p.c HAVING sum(p.a) <> 0) THEN
      RAISE EXCEPTION 'coffer_swap_batch: postings do not sum to zero' USING ERRCODE = 'CB900';
    END IF;
    SELECT count(*) INTO v_accounts_changed FROM unnest(v_locked_deltas) d WHERE d <> 0;
    UPDATE accounts a SET balance = a.balance + d.delta
    FROM unnest(v_locked_accounts, v_locked_deltas) AS d(id, delta)
    WHERE a.id = d.id AND d.delta <> 0;
    GET DIAGNOSTICS v_rows_updated = ROW_COUNT;
    IF v_rows_updated <> v_accounts_changed THEN
      RAISE EXCEPTION 'coffer_swap_batch: % accounts changed, % updated', v_accounts_changed, v_rows_updated
        USING ERRCODE = 'CB900';
    END IF;
    IF array_length(v_quotes_seen, 1) > 0 THEN
      UPDATE swap_quotes q SET used_at = now() WHERE q.id = ANY (v_quotes_seen);
      GET DIAGNOSTICS v_rows_updated = ROW_COUNT;
      IF v_rows_updated <> array_length(v_quotes_seen, 1) THEN
        RAISE EXCEPTION 'coffer_swap_batch: % quotes used, % updated', array_length(v_quotes_seen, 1), v_rows_updated
          USING ERRCODE = 'CB900';
      END IF;
    END IF;
    INSERT INTO swaps (id, entry_id, user_id, quote_id, from_currency_id, to_currency_id, from_amount, to_amount,
                       rate, mid_rate, spread_bps, fee_bps, fee, fee_currency_id)
    SELECT v_item_swap[x.i], v_item_entry[x.i], v_item_user[x.i], p_quotes[x.i], p_from_currencies[x.i], p_to_currencies[x.i],
           p_from_amounts[x.i], p_to_amounts[x.i], p_rates[x.i], p_mid_rates[x.i], p_spread_bps[x.i], p_fee_bps[x.i],
           p_fees[x.i], p_fee_currencies[x.i]
    FROM unnest(v_clean_items) AS x(i);
    RETURN QUERY
      SELECT x.i::integer, NULL::text, v_item_user[x.i], v_item_swap[x.i], false, false, v_item_entry[x.i], now()
      FROM unnest(v_clean_items) AS x(i);
  END IF;

  -- 7. Every other item on its own, as if it had arrived after the clean ones.
  FOR i IN 1..v_item_count LOOP
    IF v_item_clean[i] THEN
      CONTINUE;
    END IF;
    IF v_item_user[i] IS NULL THEN
      RETURN QUERY SELECT i, 'AUTH'::text, NULL::bigint, NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
      CONTINUE;
    END IF;
    -- Not kept under the key (the same request with a second factor is good), unless the key
    -- has its answer already: a replay moves nothing (coffer_swap_apply()).
    IF i = ANY (v_stepup_items) AND NOT coalesce(v_key_taken[i], false) THEN
      RETURN QUERY SELECT i, 'STEPUP'::text, v_item_user[i], NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
      CONTINUE;
    END IF;
    IF i = ANY (v_stale_items) THEN
      RETURN QUERY SELECT i, 'PAIR'::text, v_item_user[i], NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
      CONTINUE;
    END IF;
    BEGIN
      RETURN QUERY SELECT i, NULL::text, v_item_user[i], s.* FROM coffer_swap_apply(v_item_user[i], p_keys[i], p_hashes[i],
        p_quotes[i], p_from_currencies[i], p_to_currencies[i], p_from_amounts[i], p_to_amounts[i], p_fees[i],
        p_fee_currencies[i], p_rates[i], p_mid_rates[i], p_spread_bps[i], p_fee_bps[i],
        v_user_from_account[i], v_house_from_account[i], v_house_to_account[i], v_user_to_account[i], v_fees_account[i]) s;
    EXCEPTION WHEN OTHERS THEN
      v_refusal_state := SQLSTATE;
      IF p_keys[i] IS NOT NULL AND ledger_refusal_kept(v_refusal_state) THEN
        BEGIN
          v_refusal_state := ledger_keep_refusal('swap', v_item_user[i], p_keys[i], p_hashes[i], v_refusal_state);
        EXCEPTION WHEN OTHERS THEN
          v_refusal_state := SQLSTATE;
        END;
      END IF;
      RETURN QUERY SELECT i, v_refusal_state, v_item_user[i], NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint,
        NULL::timestamptz;
    END;
  END LOOP;
END $function$;

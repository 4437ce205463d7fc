-- Swaps in batches (group commit, decision 007's "batching single writer", as transfers do in
-- 0008): concurrent swaps share one statement, one transaction and one commit flush, and the
-- hot house and fees rows are locked once per batch instead of once per swap. Behaviour per
-- swap is unchanged for every caller.

-- The body of coffer_swap (0007) with the accounts optionally given (already resolved and
-- locked by the batch); a null account is resolved here as before. Same order of checks:
-- arguments (CB900), then the idempotency key (a replay answers even if things changed since;
-- another body is (null, true, true) -> 3010), then the quote (CB006), then the postings
-- (CB001 / CB011 from ledger_post), then the swaps row. Besides coffer_swap's columns it
-- answers the new swap's entry and creation time (null on a replay or a reused key), so that
-- a caller has the whole record without reading it back.
CREATE OR REPLACE FUNCTION coffer_swap_apply(
  p_user bigint,
  p_key text,
  p_hash text,
  p_quote bigint,
  p_from_currency integer,
  p_to_currency integer,
  p_from_amount numeric,
  p_to_amount numeric,
  p_fee numeric,
  p_fee_currency integer,
  p_rate numeric,
  p_mid_rate numeric,
  p_spread_bps integer,
  p_fee_bps integer,
  p_user_from_acc bigint,
  p_house_from_acc bigint,
  p_house_to_acc bigint,
  p_user_to_acc bigint,
  p_fees_acc bigint
)
RETURNS TABLE (swap_id bigint, replayed boolean, key_conflict boolean, s_entry bigint, s_created timestamptz)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entry bigint;
  v_hash text;
  v_swap bigint;
  v_created timestamptz;
  v_accounts bigint[];
  v_amounts numeric[];
BEGIN
  IF p_user IS NULL OR p_from_currency = p_to_currency OR p_from_amount <= 0 OR p_to_amount <= 0
     OR p_fee < 0 OR p_fee_currency NOT IN (p_from_currency, p_to_currency)
     OR (p_fee_currency = p_from_currency AND p_fee >= p_from_amount) THEN
    RAISE EXCEPTION 'coffer_swap: invalid arguments' USING ERRCODE = 'CB900';
  END IF;

  v_entry := ledger_open_entry('swap', p_user, p_key, p_hash, NULL);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash
    FROM journal_entries e WHERE e.user_id = p_user AND e.idempotency_key = p_key;
    SELECT s.id INTO v_swap FROM swaps s WHERE s.entry_id = v_entry;
    IF v_hash IS DISTINCT FROM p_hash OR v_swap IS NULL THEN
      RETURN QUERY SELECT NULL::bigint, true, true, NULL::bigint, NULL::timestamptz;
    ELSE
      RETURN QUERY SELECT v_swap, true, false, NULL::bigint, NULL::timestamptz;
    END IF;
    RETURN;
  END IF;

  IF p_quote IS NOT NULL THEN
    UPDATE swap_quotes q SET used_at = now()
    WHERE q.id = p_quote AND q.user_id = p_user AND q.used_at IS NULL AND q.expires_at > now()
      AND q.from_currency_id = p_from_currency AND q.to_currency_id = p_to_currency
      AND q.from_amount = p_from_amount AND q.to_amount = p_to_amount AND q.fee = p_fee
      AND q.fee_currency_id = p_fee_currency;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'coffer_swap: quote % is expired, used or does not match', p_quote USING ERRCODE = 'CB006';
    END IF;
  END IF;

  -- user(from) -> house(from), house(to) -> user(to); the fee is a separate posting to the
  -- fees account, taken from whichever side the pair's policy names.
  v_accounts := ARRAY[
    coalesce(p_user_from_acc, ledger_account(p_user, p_from_currency, 'available')),
    coalesce(p_house_from_acc, swap_system_account(p_from_currency, 'house')),
    coalesce(p_house_to_acc, swap_system_account(p_to_currency, 'house')),
    coalesce(p_user_to_acc, ledger_account(p_user, p_to_currency, 'available'))
  ];
  IF p_fee_currency = p_to_currency THEN
    v_amounts := ARRAY[-p_from_amount, p_from_amount, -(p_to_amount + p_fee), p_to_amount];
  ELSE
    v_amounts := ARRAY[-p_from_amount, p_from_amount - p_fee, -p_to_amount, p_to_amount];
  END IF;
  IF p_fee > 0 THEN
    v_accounts := v_accounts || coalesce(p_fees_acc, swap_system_account(p_fee_currency, 'fees'));
    v_amounts := v_amounts || p_fee;
  END IF;
  PERFORM ledger_post(v_entry, v_accounts, v_amounts);

  INSERT INTO swaps (entry_id, user_id, quote_id, from_currency_id, to_currency_id, from_amount, to_amount,
                     rate, mid_rate, spread_bps, fee_bps, fee, fee_currency_id)
  VALUES (v_entry, p_user, p_quote, p_from_currency, p_to_currency, p_from_amount, p_to_amount,
          p_rate, p_mid_rate, p_spread_bps, p_fee_bps, p_fee, p_fee_currency)
  RETURNING id, created_at INTO v_swap, v_created;
  RETURN QUERY SELECT v_swap, false, false, v_entry, v_created;
END $$;
--> statement-breakpoint

-- coffer_swap (0007), same signature and behaviour, now handing over to coffer_swap_apply.
CREATE OR REPLACE FUNCTION coffer_swap(
  p_user bigint,
  p_key text,
  p_hash text,
  p_quote bigint,
  p_from_currency integer,
  p_to_currency integer,
  p_from_amount numeric,
  p_to_amount numeric,
  p_fee numeric,
  p_fee_currency integer,
  p_rate numeric,
  p_mid_rate numeric,
  p_spread_bps integer,
  p_fee_bps integer
)
RETURNS TABLE (swap_id bigint, replayed boolean, key_conflict boolean)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT a.swap_id, a.replayed, a.key_conflict FROM coffer_swap_apply(p_user, p_key, p_hash, p_quote, p_from_currency, p_to_currency,
    p_from_amount, p_to_amount, p_fee, p_fee_currency, p_rate, p_mid_rate, p_spread_bps, p_fee_bps,
    NULL, NULL, NULL, NULL, NULL) a;
END $$;
--> statement-breakpoint

-- Many swaps in one statement and one transaction, like coffer_transfer_batch (0008). Every
-- item is coffer_swap_apply() in its own subtransaction: a refusal rolls back that item alone
-- and comes back as its SQLSTATE (b_state); the others commit together. b_state null: done,
-- with coffer_swap_apply's result columns. At most 50 items (PostgreSQL caches 64 subtransactions
-- per transaction).
--
-- Deadlock freedom: the accounts of all items (both user accounts, both houses, the fees
-- account) are locked together in id order before any item runs, the order ledger_post uses
-- for a single swap or transfer; ledger_post's own lock is then a no-op.
--
-- An item whose arguments cannot name accounts (unknown user or currency, same currency on
-- both sides, fee in a third currency) resolves none here: coffer_swap_apply() refuses it as
-- coffer_swap() would, and the batch goes on.
CREATE OR REPLACE FUNCTION coffer_swap_batch(
  p_users bigint[],
  p_keys text[],
  p_hashes text[],
  p_quotes bigint[],
  p_from_currencies integer[],
  p_to_currencies integer[],
  p_from_amounts numeric[],
  p_to_amounts numeric[],
  p_fees numeric[],
  p_fee_currencies integer[],
  p_rates numeric[],
  p_mid_rates numeric[],
  p_spread_bps integer[],
  p_fee_bps integer[]
)
RETURNS TABLE (b_i integer, b_state text, swap_id bigint, replayed boolean, key_conflict boolean,
               s_entry bigint, s_created timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := coalesce(array_length(p_users, 1), 0);
  v_user_from bigint[] := '{}';
  v_house_from bigint[] := '{}';
  v_house_to bigint[] := '{}';
  v_user_to bigint[] := '{}';
  v_fees bigint[] := '{}';
  v_a bigint;
  v_b bigint;
  v_c bigint;
  v_d bigint;
  v_e bigint;
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
    OR coalesce(array_length(p_fee_bps, 1), 0) <> v_n) THEN
    RAISE EXCEPTION 'coffer_swap_batch: argument arrays of different lengths' USING ERRCODE = 'CB900';
  END IF;

  -- 1. The accounts of every item.
  FOR i IN 1..v_n LOOP
    v_a := NULL;
    v_b := NULL;
    v_c := NULL;
    v_d := NULL;
    v_e := NULL;
    IF p_users[i] IS NOT NULL AND p_from_currencies[i] <> p_to_currencies[i]
       AND p_fee_currencies[i] IN (p_from_currencies[i], p_to_currencies[i])
       AND EXISTS (SELECT 1 FROM users u WHERE u.id = p_users[i])
       AND (SELECT count(*) FROM currencies c WHERE c.id IN (p_from_currencies[i], p_to_currencies[i])) = 2 THEN
      v_a := ledger_account(p_users[i], p_from_currencies[i], 'available');
      v_b := swap_system_account(p_from_currencies[i], 'house');
      v_c := swap_system_account(p_to_currencies[i], 'house');
      v_d := ledger_account(p_users[i], p_to_currencies[i], 'available');
      IF p_fees[i] > 0 THEN
        v_e := swap_system_account(p_fee_currencies[i], 'fees');
      END IF;
    END IF;
    v_user_from := v_user_from || v_a;
    v_house_from := v_house_from || v_b;
    v_house_to := v_house_to || v_c;
    v_user_to := v_user_to || v_d;
    v_fees := v_fees || v_e;
  END LOOP;

  -- 2. All locks at once, in id order.
  PERFORM 1 FROM accounts WHERE id = ANY (v_user_from || v_house_from || v_house_to || v_user_to || v_fees)
  ORDER BY id FOR UPDATE;

  -- 3. Each swap on its own.
  FOR i IN 1..v_n LOOP
    BEGIN
      RETURN QUERY SELECT i, NULL::text, s.* FROM coffer_swap_apply(p_users[i], p_keys[i], p_hashes[i], p_quotes[i],
        p_from_currencies[i], p_to_currencies[i], p_from_amounts[i], p_to_amounts[i], p_fees[i], p_fee_currencies[i],
        p_rates[i], p_mid_rates[i], p_spread_bps[i], p_fee_bps[i],
        v_user_from[i], v_house_from[i], v_house_to[i], v_user_to[i], v_fees[i]) s;
    EXCEPTION WHEN OTHERS THEN
      RETURN QUERY SELECT i, SQLSTATE::text, NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint, NULL::timestamptz;
    END;
  END LOOP;
END $$;

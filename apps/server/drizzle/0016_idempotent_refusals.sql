-- Refusals are kept under their Idempotency-Key (security issue 7, item 10; decision 012). A
-- key's first final answer is its answer forever, a business refusal as much as a success: a
-- transfer refused for insufficient balance and sent again with the same key and body answers
-- the same refusal and moves nothing, even once the balance would allow it; the same key with
-- another body is 3010. (Before, the refusal rolled back with its entry, the key stayed free,
-- and the retry moved the money.)
--
-- A refusal is a journal entry with `refusal` set (the SQLSTATE that refused it), no postings
-- and no business row, so a key has one place and one unique index, (user_id,
-- idempotency_key), whatever its answer was: a concurrent twin waits on that index as it
-- always did, and a replay reads the one row. The audit treats refused entries apart
-- (ledger/audit.ts).
ALTER TABLE journal_entries ADD COLUMN refusal text;
--> statement-breakpoint
ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_refusal_check
  CHECK (refusal IS NULL OR (idempotency_key IS NOT NULL AND refusal ~ '^[0-9A-Z]{5}$'));
--> statement-breakpoint

-- The SQLSTATEs that are a final business answer and are kept under their key: what the
-- server maps to 3001-3009, 3011, 3012 (22003: a balance would pass NUMERIC(38,18), 3002).
-- Not kept: CB010 (the key already has its answer), CB900 (a bug), deadlocks and
-- serialization failures (run again), anything else (a fault).
CREATE OR REPLACE FUNCTION ledger_refusal_kept(p_state text)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_state IN ('CB001', 'CB002', 'CB003', 'CB004', 'CB005', 'CB006', 'CB007', 'CB008', 'CB009',
                     'CB011', 'CB012', '22003')
$$;
--> statement-breakpoint

-- Keeps a refusal under (p_user, p_key) and answers the SQLSTATE the request is to hear. Called
-- in the transaction that refused the request, after the refused work rolled back (a batch
-- item's subtransaction, coffer_withdraw_request's block). Answers:
--   p_state  kept now, or nothing to keep (no key, or a state that is not kept), or the key
--            already holds this very refusal for this very request (a replay of it);
--   '40001'  the key got another answer first (a concurrent request with the same key took it
--            between the rollback and here): run the request again to hear that answer.
CREATE OR REPLACE FUNCTION ledger_keep_refusal(p_kind text, p_user bigint, p_key text, p_hash text, p_state text)
RETURNS text LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint

-- coffer_transfer_apply (0008), same signature; a key whose first answer was a refusal
-- answers it again (raises its SQLSTATE) before anything else is looked at.
CREATE OR REPLACE FUNCTION coffer_transfer_apply(
  p_from bigint, p_to bigint, p_to_email text, p_to_nickname text, p_currency integer, p_amount numeric,
  p_memo text, p_via text, p_key text, p_hash text, p_from_acc bigint, p_to_acc bigint)
RETURNS TABLE (t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text,
               t_amount numeric, t_memo text, t_created timestamptz, t_replayed boolean)
LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint

-- coffer_transfer_batch (0008), same signature and the same statements for a transfer that
-- goes through. A refused item still rolls back alone in its subtransaction; then, with an
-- Idempotency-Key, its refusal is kept under the key in the batch's own transaction (one
-- insert, only for a refused item) and b_state is the answer ledger_keep_refusal gives:
-- the refusal, or 40001 (another request took the key first: the caller runs the item again
-- and hears that request's answer). The insert has a block of its own so that an error there
-- (a deadlock with another process's twin) refuses this item alone, as before.
CREATE OR REPLACE FUNCTION coffer_transfer_batch(
  p_tokens text[], p_to_uids bigint[], p_to_emails text[], p_currencies integer[], p_amounts numeric[],
  p_memos text[], p_keys text[], p_hashes text[])
RETURNS TABLE (b_i integer, b_state text, t_id bigint, t_entry bigint, t_to bigint, t_to_email text,
               t_to_nickname text, t_amount numeric, t_memo text, t_created timestamptz, t_replayed boolean)
LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint

-- coffer_swap_apply (0009), same signature; a key whose first answer was a refusal answers
-- it again (raises its SQLSTATE) right after the argument check.
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
  v_kind text;
  v_hash text;
  v_refusal text;
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
    SELECT e.id, e.kind, e.request_hash, e.refusal INTO v_entry, v_kind, v_hash, v_refusal
    FROM journal_entries e WHERE e.user_id = p_user AND e.idempotency_key = p_key;
    IF v_refusal IS NOT NULL AND v_kind = 'swap' AND v_hash IS NOT DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % was refused (%)', p_key, v_refusal USING ERRCODE = v_refusal;
    END IF;
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

-- coffer_swap_batch (0009), same signature; a refused item with a key keeps its refusal as
-- coffer_transfer_batch does (b_state: the refusal, or 40001 to run the item again).
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
      v_state := SQLSTATE;
      IF p_keys[i] IS NOT NULL AND ledger_refusal_kept(v_state) THEN
        BEGIN
          v_state := ledger_keep_refusal('swap', p_users[i], p_keys[i], p_hashes[i], v_state);
        EXCEPTION WHEN OTHERS THEN
          v_state := SQLSTATE;
        END;
      END IF;
      RETURN QUERY SELECT i, v_state, NULL::bigint, NULL::boolean, NULL::boolean, NULL::bigint, NULL::timestamptz;
    END;
  END LOOP;
END $$;
--> statement-breakpoint

-- coffer_withdraw_apply (0011), same signature and behaviour (a refusal raises); a key whose
-- first answer was a refusal answers it again (raises its SQLSTATE).
CREATE OR REPLACE FUNCTION coffer_withdraw_apply(
  p_user bigint, p_network integer, p_address text, p_amount numeric, p_memo text, p_key text, p_hash text)
RETURNS TABLE (w_id bigint, w_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_net networks%ROWTYPE;
  v_entry bigint;
  v_kind text;
  v_hash text;
  v_refusal text;
  v_id bigint;
  v_decimals integer;
  v_today numeric;
  v_total numeric;
  v_available bigint;
BEGIN
  v_entry := ledger_open_entry('withdraw_hold', p_user, p_key, p_hash, p_memo);
  IF v_entry IS NULL THEN
    SELECT e.id, e.kind, e.request_hash, e.refusal INTO v_entry, v_kind, v_hash, v_refusal
    FROM journal_entries e WHERE e.user_id = p_user AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash OR (v_refusal IS NOT NULL AND v_kind <> 'withdraw_hold') THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    IF v_refusal IS NOT NULL THEN
      RAISE EXCEPTION 'idempotency key % was refused (%)', p_key, v_refusal USING ERRCODE = v_refusal;
    END IF;
    RETURN QUERY SELECT we.withdrawal_id, true FROM withdrawal_entries we WHERE we.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;

  SELECT * INTO v_net FROM networks WHERE id = p_network;
  IF NOT FOUND OR NOT v_net.withdraw_enabled OR NOT (v_net.native OR v_net.contract IS NOT NULL) THEN
    RAISE EXCEPTION 'network % is unavailable', p_network USING ERRCODE = 'CB003';
  END IF;
  IF chain_payouts_frozen(p_network) THEN
    RAISE EXCEPTION 'payouts on network % are frozen', p_network USING ERRCODE = 'CB012';
  END IF;
  v_decimals := coffer_check_amount(v_net.currency_id, p_amount, true, false);
  IF p_amount <> round(p_amount, least(v_decimals, v_net.token_decimals))
     OR p_amount < v_net.min_withdraw OR p_amount > v_net.max_withdraw THEN
    RAISE EXCEPTION 'amount % is out of range for network %', p_amount, p_network USING ERRCODE = 'CB002';
  END IF;
  -- The daily limit counts every withdrawal of this UTC day that was not given back.
  -- The user's rows are serialized by the lock on their available account below.
  v_available := ledger_account(p_user, v_net.currency_id, 'available');
  PERFORM 1 FROM accounts WHERE id = v_available FOR UPDATE;
  SELECT coalesce(sum(w.amount), 0) INTO v_today FROM withdrawals w
  WHERE w.user_id = p_user AND w.network_id = p_network
    AND w.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND w.status NOT IN ('failed', 'cancelled', 'rejected');
  IF v_today + p_amount > v_net.daily_withdraw_limit THEN
    RAISE EXCEPTION 'daily withdrawal limit of network % exceeded', p_network USING ERRCODE = 'CB009';
  END IF;

  v_total := p_amount + v_net.withdraw_fee;
  PERFORM ledger_post(v_entry,
    ARRAY[v_available, ledger_account(p_user, v_net.currency_id, 'frozen')],
    ARRAY[-v_total, v_total]);
  INSERT INTO withdrawals (user_id, network_id, currency_id, address, amount, fee, memo, status)
  VALUES (p_user, p_network, v_net.currency_id, p_address, p_amount, v_net.withdraw_fee, p_memo,
          CASE WHEN v_net.review_threshold IS NOT NULL AND p_amount >= v_net.review_threshold THEN 'review' ELSE 'queued' END)
  RETURNING id INTO v_id;
  INSERT INTO withdrawal_entries (withdrawal_id, entry_id, kind) VALUES (v_id, v_entry, 'withdraw_hold');
  RETURN QUERY SELECT v_id, false;
END $$;
--> statement-breakpoint

-- What POST /api/withdraw/apply calls: coffer_withdraw_apply, and with an Idempotency-Key a
-- business refusal is kept under the key (in this transaction) and answered as a row instead
-- of raised, so the caller commits it: w_refusal is the SQLSTATE to answer, or 40001 when a
-- concurrent request took the key first (40P01 when keeping it deadlocked): run again to
-- hear the key's answer. Without a key, and
-- for anything that is not a kept refusal (CB010, faults), the error is raised as before.
CREATE OR REPLACE FUNCTION coffer_withdraw_request(
  p_user bigint, p_network integer, p_address text, p_amount numeric, p_memo text, p_key text, p_hash text)
RETURNS TABLE (w_id bigint, w_replayed boolean, w_refusal text)
LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
BEGIN
  BEGIN
    RETURN QUERY SELECT a.w_id, a.w_replayed, NULL::text
      FROM coffer_withdraw_apply(p_user, p_network, p_address, p_amount, p_memo, p_key, p_hash) a;
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
END $$;

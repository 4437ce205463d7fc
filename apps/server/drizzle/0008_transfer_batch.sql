-- Transfers in batches (group commit, DESIGN §6: "or through a batching writer") and a
-- leaner ledger_post. Behaviour is unchanged for every caller; the work per transfer in the
-- database drops (fewer statements), and concurrent transfers share one transaction.

-- ledger_post, same contract as in 0002: the per-currency zero-sum check now runs over the
-- arguments in plpgsql (the currencies come back from the UPDATEs) instead of a query that
-- joined accounts again.
CREATE OR REPLACE FUNCTION ledger_post(p_entry bigint, p_accounts bigint[], p_amounts numeric[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := coalesce(array_length(p_accounts, 1), 0);
  v_currency integer;
  v_currencies integer[] := '{}';
  v_user bigint;
  v_balance numeric;
  v_sum numeric;
BEGIN
  IF v_n < 2 OR v_n <> coalesce(array_length(p_amounts, 1), 0) THEN
    RAISE EXCEPTION 'ledger_post: entry % needs matching arrays of at least two postings', p_entry USING ERRCODE = 'CB900';
  END IF;
  PERFORM 1 FROM accounts WHERE id = ANY (p_accounts) ORDER BY id FOR UPDATE;
  FOR i IN 1..v_n LOOP
    IF p_amounts[i] IS NULL OR p_amounts[i] = 0 THEN
      RAISE EXCEPTION 'ledger_post: entry % has a zero or null posting', p_entry USING ERRCODE = 'CB900';
    END IF;
    UPDATE accounts SET balance = balance + p_amounts[i]
    WHERE id = p_accounts[i] AND (min_balance IS NULL OR balance + p_amounts[i] >= min_balance)
    RETURNING balance, currency_id INTO v_balance, v_currency;
    IF NOT FOUND THEN
      SELECT user_id INTO v_user FROM accounts WHERE id = p_accounts[i];
      IF NOT FOUND THEN
        RAISE EXCEPTION 'ledger_post: account % does not exist', p_accounts[i] USING ERRCODE = 'CB900';
      ELSIF v_user IS NULL THEN
        RAISE EXCEPTION 'ledger_post: system account % would pass its floor', p_accounts[i] USING ERRCODE = 'CB011';
      ELSE
        RAISE EXCEPTION 'ledger_post: account % has insufficient balance', p_accounts[i] USING ERRCODE = 'CB001';
      END IF;
    END IF;
    v_currencies := v_currencies || v_currency;
    INSERT INTO postings (entry_id, account_id, currency_id, amount, balance_after)
    VALUES (p_entry, p_accounts[i], v_currency, p_amounts[i], v_balance);
  END LOOP;
  -- Invariant: money is neither created nor destroyed, per currency.
  FOR i IN 1..v_n LOOP
    v_sum := 0;
    FOR j IN 1..v_n LOOP
      IF v_currencies[j] = v_currencies[i] THEN
        v_sum := v_sum + p_amounts[j];
      END IF;
    END LOOP;
    IF v_sum <> 0 THEN
      RAISE EXCEPTION 'ledger_post: entry % does not sum to zero', p_entry USING ERRCODE = 'CB900';
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint

-- The body of a transfer once its parties are known: p_to null means the recipient was not
-- found; p_from_acc/p_to_acc may be given (already resolved and locked by the batch) or null.
-- Order: the idempotency key first (a replay answers even if things changed since), then
-- recipient (CB004, CB005), then currency and amount (CB003, CB002), then the postings.
CREATE OR REPLACE FUNCTION coffer_transfer_apply(
  p_from bigint, p_to bigint, p_to_email text, p_to_nickname text, p_currency integer, p_amount numeric,
  p_memo text, p_via text, p_key text, p_hash text, p_from_acc bigint, p_to_acc bigint)
RETURNS TABLE (t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text,
               t_amount numeric, t_memo text, t_created timestamptz, t_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_entry bigint;
  v_hash text;
  v_id bigint;
  v_created timestamptz;
BEGIN
  v_entry := ledger_open_entry('transfer', p_from, p_key, p_hash, p_memo);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash
    FROM journal_entries e WHERE e.user_id = p_from AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
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

-- coffer_transfer (0005), same signature and behaviour, now resolving the recipient and
-- handing over to coffer_transfer_apply.
CREATE OR REPLACE FUNCTION coffer_transfer(
  p_from bigint, p_to_uid bigint, p_to_email text, p_currency integer, p_amount numeric,
  p_memo text, p_key text, p_hash text)
RETURNS TABLE (t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text,
               t_amount numeric, t_memo text, t_created timestamptz, t_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_to bigint;
  v_to_email text;
  v_to_nick text;
BEGIN
  IF p_to_uid IS NOT NULL THEN
    SELECT u.id, u.email, u.nickname INTO v_to, v_to_email, v_to_nick FROM users u WHERE u.id = p_to_uid;
  ELSE
    SELECT u.id, u.email, u.nickname INTO v_to, v_to_email, v_to_nick FROM users u WHERE u.email = lower(p_to_email);
  END IF;
  RETURN QUERY SELECT * FROM coffer_transfer_apply(p_from, v_to, v_to_email, v_to_nick, p_currency, p_amount, p_memo,
    CASE WHEN p_to_uid IS NOT NULL THEN 'uid' ELSE 'email' END, p_key, p_hash, NULL, NULL);
END $$;
--> statement-breakpoint

-- Many transfers in one statement and one transaction. Every item is coffer_transfer_apply()
-- in its own subtransaction: a refusal rolls back that item alone and comes back as its
-- SQLSTATE; the others commit together. At most 50 items (PostgreSQL caches 64
-- subtransactions per transaction; beyond that every snapshot gets slower).
--
-- Deadlock freedom: the accounts of all items are locked together in id order before any
-- item runs (as ledger_post does for one entry); ledger_post's own lock is then a no-op.
--
-- Senders come from their session token hashes, with the same condition as requireSession
-- (core/session.ts). Per item, b_state is null (done, t_* filled), 'AUTH' (no active
-- session: 2001) or the SQLSTATE that refused it.
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
      RETURN QUERY SELECT i, SQLSTATE::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
        NULL::numeric, NULL::text, NULL::timestamptz, NULL::boolean;
    END;
  END LOOP;
END $$;

-- Money-moving business operations, each one round trip (DESIGN §6): open the entry
-- (idempotency), resolve the accounts, post, write the business row, answer.
--
-- SQLSTATEs raised here, besides CB001/CB011/CB900 from ledger_post:
--   CB002  amount out of range or too many decimals  -> 3002
--   CB003  currency unknown or disabled               -> 3003
--   CB004  recipient or user not found                -> 3004
--   CB005  sending to oneself                         -> 3005
--   CB010  idempotency key reused with another body   -> 3010

-- Validates an amount against a currency row; raises CB003/CB002. Returns the decimals.
CREATE OR REPLACE FUNCTION coffer_check_amount(p_currency integer, p_amount numeric, p_require_enabled boolean, p_apply_limits boolean)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_cur currencies%ROWTYPE;
BEGIN
  SELECT * INTO v_cur FROM currencies WHERE id = p_currency;
  IF NOT FOUND OR (p_require_enabled AND NOT v_cur.enabled) THEN
    RAISE EXCEPTION 'currency % is unavailable', p_currency USING ERRCODE = 'CB003';
  END IF;
  IF p_amount IS NULL OR p_amount <= 0 OR p_amount <> round(p_amount, v_cur.decimals)
     OR p_amount >= 1e20
     OR (p_apply_limits AND v_cur.transfer_min IS NOT NULL AND p_amount < v_cur.transfer_min)
     OR (p_apply_limits AND v_cur.transfer_max IS NOT NULL AND p_amount > v_cur.transfer_max) THEN
    RAISE EXCEPTION 'amount % is out of range for currency %', p_amount, p_currency USING ERRCODE = 'CB002';
  END IF;
  RETURN v_cur.decimals;
END $$;
--> statement-breakpoint

-- A transfer between two users' available balances. The recipient is named by uid or by
-- e-mail (exactly one). With an idempotency key, a replay answers the stored transfer
-- (t_replayed = true) and a reused key with another request hash raises CB010.
CREATE OR REPLACE FUNCTION coffer_transfer(
  p_from bigint, p_to_uid bigint, p_to_email text, p_currency integer, p_amount numeric,
  p_memo text, p_key text, p_hash text)
RETURNS TABLE (t_id bigint, t_entry bigint, t_to bigint, t_to_email text, t_to_nickname text,
               t_amount numeric, t_memo text, t_created timestamptz, t_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_entry bigint;
  v_hash text;
  v_to bigint;
  v_to_email text;
  v_to_nick text;
  v_from_acc bigint;
  v_to_acc bigint;
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

  IF p_to_uid IS NOT NULL THEN
    SELECT u.id, u.email, u.nickname INTO v_to, v_to_email, v_to_nick FROM users u WHERE u.id = p_to_uid;
  ELSE
    SELECT u.id, u.email, u.nickname INTO v_to, v_to_email, v_to_nick FROM users u WHERE u.email = lower(p_to_email);
  END IF;
  IF v_to IS NULL THEN
    RAISE EXCEPTION 'recipient not found' USING ERRCODE = 'CB004';
  END IF;
  IF v_to = p_from THEN
    RAISE EXCEPTION 'cannot send to oneself' USING ERRCODE = 'CB005';
  END IF;
  PERFORM coffer_check_amount(p_currency, p_amount, true, true);

  v_from_acc := ledger_account(p_from, p_currency, 'available');
  v_to_acc := ledger_account(v_to, p_currency, 'available');
  PERFORM ledger_post(v_entry, ARRAY[v_from_acc, v_to_acc], ARRAY[-p_amount, p_amount]);

  INSERT INTO transfers (entry_id, from_user_id, to_user_id, currency_id, amount, memo, via)
  VALUES (v_entry, p_from, v_to, p_currency, p_amount, p_memo, CASE WHEN p_to_uid IS NOT NULL THEN 'uid' ELSE 'email' END)
  RETURNING id, created_at INTO v_id, v_created;

  RETURN QUERY SELECT v_id, v_entry, v_to, v_to_email, v_to_nick, p_amount, p_memo, v_created, false;
END $$;
--> statement-breakpoint

-- An operator's credit (p_amount > 0) or debit (p_amount < 0) of a user's available balance
-- against the system adjustments account, with who and why. The idempotency key is scoped
-- to the acting operator (p_actor_user); the command line passes none.
CREATE OR REPLACE FUNCTION coffer_adjust(
  p_user bigint, p_currency integer, p_amount numeric, p_reason text, p_actor text,
  p_actor_user bigint, p_key text, p_hash text)
RETURNS TABLE (a_id bigint, a_entry bigint, a_amount numeric, a_balance_after numeric,
               a_created timestamptz, a_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_entry bigint;
  v_hash text;
  v_user_acc bigint;
  v_adj_acc bigint;
  v_id bigint;
  v_created timestamptz;
  v_after numeric;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'an adjustment needs a reason and an actor' USING ERRCODE = 'CB900';
  END IF;
  v_entry := ledger_open_entry('adjustment', p_actor_user, p_key, p_hash, p_reason);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash
    FROM journal_entries e WHERE e.user_id = p_actor_user AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN QUERY
      SELECT a.id, a.entry_id, a.amount, p.balance_after, a.created_at, true
      FROM adjustments a
      JOIN accounts acc ON acc.user_id = a.user_id AND acc.currency_id = a.currency_id AND acc.kind = 'available'
      JOIN postings p ON p.entry_id = a.entry_id AND p.account_id = acc.id
      WHERE a.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;

  PERFORM 1 FROM users WHERE id = p_user;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'user % not found', p_user USING ERRCODE = 'CB004';
  END IF;
  PERFORM coffer_check_amount(p_currency, abs(p_amount), false, false);

  v_user_acc := ledger_account(p_user, p_currency, 'available');
  v_adj_acc := ledger_account(NULL, p_currency, 'adjustments');
  PERFORM ledger_post(v_entry, ARRAY[v_user_acc, v_adj_acc], ARRAY[p_amount, -p_amount]);

  INSERT INTO adjustments (entry_id, user_id, currency_id, amount, reason, actor, actor_user_id)
  VALUES (v_entry, p_user, p_currency, p_amount, btrim(p_reason), btrim(p_actor), p_actor_user)
  RETURNING id, created_at INTO v_id, v_created;
  SELECT p.balance_after INTO v_after FROM postings p WHERE p.entry_id = v_entry AND p.account_id = v_user_acc;

  RETURN QUERY SELECT v_id, v_entry, p_amount, v_after, v_created, false;
END $$;

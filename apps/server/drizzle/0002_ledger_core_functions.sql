-- Ledger core, in SQL so that money moves in one round trip per operation (DESIGN §6).
-- Business functions (transfer, swap, adjustment, ...) open an entry, resolve accounts
-- and call ledger_post; any failure raises and rolls back everything, entry included.
--
-- SQLSTATEs raised for the application to map to business codes:
--   CB001  a user account would go below zero            -> 3001 insufficient balance
--   CB011  a system account would pass its floor (house) -> 3011 house limit reached
--   CB900  an invariant broke (unbalanced entry, bad arguments): a bug, never a user error

-- Get-or-create an account; system accounts (p_user null) get no floor except the house,
-- whose floor is set by the operator (ledger_set_house_limit).
CREATE OR REPLACE FUNCTION ledger_account(p_user bigint, p_currency integer, p_kind text)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  IF p_user IS NULL THEN
    SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = p_kind;
  ELSE
    SELECT id INTO v_id FROM accounts WHERE user_id = p_user AND currency_id = p_currency AND kind = p_kind;
  END IF;
  IF v_id IS NOT NULL THEN
    RETURN v_id;
  END IF;
  INSERT INTO accounts (currency_id, user_id, kind, min_balance)
  VALUES (p_currency, p_user, p_kind, CASE WHEN p_user IS NULL THEN NULL ELSE 0 END)
  ON CONFLICT DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    -- Lost a race with a concurrent creator: read the winner's row.
    IF p_user IS NULL THEN
      SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = p_kind;
    ELSE
      SELECT id INTO v_id FROM accounts WHERE user_id = p_user AND currency_id = p_currency AND kind = p_kind;
    END IF;
  END IF;
  RETURN v_id;
END $$;
--> statement-breakpoint

-- Opens a journal entry. Returns null when (user, key) already exists: the caller then
-- compares request hashes to tell a replay (same request) from a reused key (3010).
-- A concurrent twin blocks on the unique index until the first commits or rolls back.
CREATE OR REPLACE FUNCTION ledger_open_entry(p_kind text, p_user bigint, p_key text, p_hash text, p_memo text)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  IF p_key IS NULL THEN
    INSERT INTO journal_entries (kind, user_id, memo) VALUES (p_kind, p_user, p_memo) RETURNING id INTO v_id;
    RETURN v_id;
  END IF;
  INSERT INTO journal_entries (kind, user_id, idempotency_key, request_hash, memo)
  VALUES (p_kind, p_user, p_key, p_hash, p_memo)
  ON CONFLICT (user_id, idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  RETURN v_id;
END $$;
--> statement-breakpoint

-- Applies the postings of one entry. Accounts are locked in id order (no deadlocks),
-- each posting records the balance after it, floors are enforced, and the entry must
-- sum to zero per currency before the function returns.
CREATE OR REPLACE FUNCTION ledger_post(p_entry bigint, p_accounts bigint[], p_amounts numeric[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := coalesce(array_length(p_accounts, 1), 0);
  v_currency integer;
  v_user bigint;
  v_balance numeric;
  v_unbalanced integer;
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
    INSERT INTO postings (entry_id, account_id, currency_id, amount, balance_after)
    VALUES (p_entry, p_accounts[i], v_currency, p_amounts[i], v_balance);
  END LOOP;
  -- Invariant: money is neither created nor destroyed, per currency.
  SELECT count(*) INTO v_unbalanced FROM (
    SELECT a.currency_id FROM unnest(p_accounts, p_amounts) AS x(account_id, amount)
    JOIN accounts a ON a.id = x.account_id
    GROUP BY a.currency_id HAVING sum(x.amount) <> 0
  ) s;
  IF v_unbalanced > 0 THEN
    RAISE EXCEPTION 'ledger_post: entry % does not sum to zero', p_entry USING ERRCODE = 'CB900';
  END IF;
END $$;
--> statement-breakpoint

-- Seeded currencies (operators may add more). Icons ship with the web app (no internet).
INSERT INTO currencies (code, name, decimals, icon, sort) VALUES
  ('USDT', 'Tether USD', 6, '/currency/usdt.svg', 1),
  ('USDC', 'USD Coin', 6, '/currency/usdc.svg', 2),
  ('ETH', 'Ether', 18, '/currency/eth.svg', 3),
  ('BTC', 'Bitcoin', 8, '/currency/btc.svg', 4)
ON CONFLICT (code) DO NOTHING;
--> statement-breakpoint

-- System accounts per currency: world and adjustments are unbounded (they mirror money
-- entering or leaving), fees never go below zero, the house starts with no credit line.
INSERT INTO accounts (currency_id, user_id, kind, min_balance)
SELECT c.id, NULL, k.kind, k.floor
FROM currencies c
CROSS JOIN (VALUES ('world', NULL::numeric), ('adjustments', NULL::numeric), ('fees', 0::numeric), ('house', 0::numeric)) AS k(kind, floor)
ON CONFLICT DO NOTHING;

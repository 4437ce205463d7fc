-- Swaps (DESIGN §6; TigerBeetle's currency-exchange recipe): one journal entry whose
-- postings run through the house (liquidity) accounts of both currencies, with the fee
-- as its own posting to the fees account. Amounts are computed by the application with
-- decimal arithmetic, rounded toward the house; this function moves the money in one
-- round trip and writes the business row in the same transaction.
--
-- SQLSTATEs (besides the ledger's CB001 / CB011 / CB900):
--   CB006  the quote is expired, already used, another user's or not this request -> 3006

-- The house and fees accounts of a currency. Unlike ledger_account(), a missing one is
-- created with a floor of 0 (no credit line until an operator configures the house limit).
CREATE OR REPLACE FUNCTION swap_system_account(p_currency integer, p_kind text)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = p_kind;
  IF v_id IS NULL THEN
    INSERT INTO accounts (currency_id, user_id, kind, min_balance) VALUES (p_currency, NULL, p_kind, 0)
    ON CONFLICT DO NOTHING;
    SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = p_kind;
  END IF;
  RETURN v_id;
END $$;
--> statement-breakpoint

-- Returns (swap_id, replayed, key_conflict):
--   a new swap                        -> (id, false, false)
--   the same Idempotency-Key and body -> (the earlier id, true, false), nothing moves again
--   the same key with another body    -> (null, true, true): the caller answers 3010
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
#variable_conflict use_column
DECLARE
  v_entry bigint;
  v_hash text;
  v_swap bigint;
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
      RETURN QUERY SELECT NULL::bigint, true, true;
    ELSE
      RETURN QUERY SELECT v_swap, true, false;
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
    ledger_account(p_user, p_from_currency, 'available'),
    swap_system_account(p_from_currency, 'house'),
    swap_system_account(p_to_currency, 'house'),
    ledger_account(p_user, p_to_currency, 'available')
  ];
  IF p_fee_currency = p_to_currency THEN
    v_amounts := ARRAY[-p_from_amount, p_from_amount, -(p_to_amount + p_fee), p_to_amount];
  ELSE
    v_amounts := ARRAY[-p_from_amount, p_from_amount - p_fee, -p_to_amount, p_to_amount];
  END IF;
  IF p_fee > 0 THEN
    v_accounts := v_accounts || swap_system_account(p_fee_currency, 'fees');
    v_amounts := v_amounts || p_fee;
  END IF;
  PERFORM ledger_post(v_entry, v_accounts, v_amounts);

  INSERT INTO swaps (entry_id, user_id, quote_id, from_currency_id, to_currency_id, from_amount, to_amount,
                     rate, mid_rate, spread_bps, fee_bps, fee, fee_currency_id)
  VALUES (v_entry, p_user, p_quote, p_from_currency, p_to_currency, p_from_amount, p_to_amount,
          p_rate, p_mid_rate, p_spread_bps, p_fee_bps, p_fee, p_fee_currency)
  RETURNING id INTO v_swap;
  RETURN QUERY SELECT v_swap, false, false;
END $$;
--> statement-breakpoint

-- Seeded pairs among the seeded currencies, both directions (operators edit swap_pairs).
-- Reverse rates are the reciprocal truncated to 18 decimals (toward the house).
-- Minimum and maximum are in the sold currency.
INSERT INTO swap_pairs (from_currency_id, to_currency_id, mid_rate, spread_bps, fee_bps, fee_currency, min_amount, max_amount)
SELECT f.id, t.id, p.mid_rate, p.spread_bps, p.fee_bps, 'to', p.min_amount, p.max_amount
FROM (VALUES
  ('USDT', 'USDC', 1::numeric, 10, 10, 1::numeric, 100000::numeric),
  ('USDC', 'USDT', 1, 10, 10, 1, 100000),
  ('ETH', 'USDT', 3000, 30, 10, 0.001, 50),
  ('USDT', 'ETH', 0.000333333333333333, 30, 10, 1, 100000),
  ('ETH', 'USDC', 3000, 30, 10, 0.001, 50),
  ('USDC', 'ETH', 0.000333333333333333, 30, 10, 1, 100000),
  ('BTC', 'USDT', 60000, 30, 10, 0.0001, 2),
  ('USDT', 'BTC', 0.000016666666666666, 30, 10, 1, 100000),
  ('BTC', 'USDC', 60000, 30, 10, 0.0001, 2),
  ('USDC', 'BTC', 0.000016666666666666, 30, 10, 1, 100000),
  ('BTC', 'ETH', 20, 30, 10, 0.0001, 2),
  ('ETH', 'BTC', 0.05, 30, 10, 0.001, 50)
) AS p(from_code, to_code, mid_rate, spread_bps, fee_bps, min_amount, max_amount)
JOIN currencies f ON f.code = p.from_code
JOIN currencies t ON t.code = p.to_code
ON CONFLICT (from_currency_id, to_currency_id) DO NOTHING;

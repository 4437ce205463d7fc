-- The operator console (modules/console-admin): disabled sign-in, stored ledger audit runs,
-- and the two ledger parameters an operator sets (swap pairs, house limits) as audited SQL
-- functions: each validates, changes the row and appends its operator_actions row (0017) in
-- the caller's one transaction. Decision 018.

-- users.disabled_at / disabled_reason come from 0017 (activities, 0019, already leave
-- disabled accounts out of rankings).


-- Every ledger audit an operator ran: the console shows the latest on its dashboard.
CREATE TABLE ledger_audit_runs (
  id bigserial PRIMARY KEY,
  ok boolean NOT NULL,
  -- check name -> violations
  summary jsonb NOT NULL,
  actor_user_id bigint REFERENCES users (id),
  actor text NOT NULL CHECK (length(actor) BETWEEN 1 AND 320),
  ran_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint

-- The configured house limit per currency (how much the house may owe). The floor on the
-- house account is derived from it: least(-limit, balance) at the time it was set.
CREATE TABLE house_limits (
  currency_id integer PRIMARY KEY REFERENCES currencies (id),
  "limit" numeric(38, 18) NOT NULL CHECK ("limit" >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint

-- A pair's operator settings as the audit trail keeps them (numbers without trailing zeros).
CREATE FUNCTION coffer_swap_pair_json(p swap_pairs) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'midRate', trim_scale(p.mid_rate)::text,
    'spreadBps', p.spread_bps,
    'feeBps', p.fee_bps,
    'minAmount', trim_scale(p.min_amount)::text,
    'maxAmount', trim_scale(p.max_amount)::text,
    'enabled', p.enabled)
$$;
--> statement-breakpoint

-- Sets every operator field of one swap pair. SQLSTATEs: CB404 unknown pair, CB002 a rate,
-- bps or limit out of range (or more decimals than the sold currency has), 22023 no reason or
-- actor. Nothing changes (and no audit row) when the settings are already so: answers false.
CREATE FUNCTION coffer_swap_pair_set(
  p_pair integer, p_mid_rate numeric, p_spread_bps integer, p_fee_bps integer,
  p_min numeric, p_max numeric, p_enabled boolean,
  p_actor_user bigint, p_actor text, p_reason text)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_old swap_pairs;
  v_new swap_pairs;
  v_decimals integer;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a swap pair change needs a reason and an actor' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_old FROM swap_pairs WHERE id = p_pair FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'swap pair % not found', p_pair USING ERRCODE = 'CB404';
  END IF;
  SELECT decimals INTO v_decimals FROM currencies WHERE id = v_old.from_currency_id;
  IF p_mid_rate IS NULL OR p_mid_rate <= 0 OR p_mid_rate <> round(p_mid_rate, 18)
     OR p_spread_bps IS NULL OR p_spread_bps NOT BETWEEN 0 AND 5000
     OR p_fee_bps IS NULL OR p_fee_bps NOT BETWEEN 0 AND 5000
     OR p_min <= 0 OR p_max <= 0 OR p_min > p_max
     OR p_min <> round(p_min, v_decimals) OR p_max <> round(p_max, v_decimals)
     OR p_enabled IS NULL THEN
    RAISE EXCEPTION 'swap pair setting out of range' USING ERRCODE = 'CB002';
  END IF;
  IF v_old.mid_rate = p_mid_rate AND v_old.spread_bps = p_spread_bps AND v_old.fee_bps = p_fee_bps
     AND v_old.min_amount IS NOT DISTINCT FROM p_min AND v_old.max_amount IS NOT DISTINCT FROM p_max
     AND v_old.enabled = p_enabled THEN
    RETURN false;
  END IF;
  UPDATE swap_pairs SET mid_rate = p_mid_rate, spread_bps = p_spread_bps, fee_bps = p_fee_bps,
         min_amount = p_min, max_amount = p_max, enabled = p_enabled, updated_at = now()
   WHERE id = p_pair
  RETURNING * INTO v_new;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'swap.pair.update', 'swap_pair', p_pair::text, p_reason,
    coffer_swap_pair_json(v_old), coffer_swap_pair_json(v_new));
  RETURN true;
END $$;
--> statement-breakpoint

-- The house may owe at most p_limit of a currency: its floor becomes -limit, or its balance
-- when it already owes more (no further outflow rather than a broken floor). Called at start
-- for HOUSE_LIMITS (actor 'config') and by operators. SQLSTATEs: CB003 unknown currency,
-- CB002 a negative limit, 22023 no actor. Nothing changes (and no audit row) when the limit
-- and the floor are already so: h_changed false.
CREATE FUNCTION coffer_house_limit_set(
  p_currency integer, p_limit numeric, p_actor_user bigint, p_actor text, p_reason text)
RETURNS TABLE (h_changed boolean, h_limit numeric, h_balance numeric, h_min_balance numeric)
LANGUAGE plpgsql AS $$
DECLARE
  v_acc bigint;
  v_balance numeric;
  v_min numeric;
  v_old_limit numeric;
  v_new_min numeric;
BEGIN
  IF p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a house limit change needs an actor' USING ERRCODE = '22023';
  END IF;
  PERFORM 1 FROM currencies WHERE id = p_currency;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'currency % not found', p_currency USING ERRCODE = 'CB003';
  END IF;
  IF p_limit IS NULL OR p_limit < 0 OR p_limit <> round(p_limit, 18) THEN
    RAISE EXCEPTION 'house limit out of range' USING ERRCODE = 'CB002';
  END IF;
  v_acc := swap_system_account(p_currency, 'house');
  SELECT balance, min_balance INTO v_balance, v_min FROM accounts WHERE id = v_acc FOR UPDATE;
  SELECT "limit" INTO v_old_limit FROM house_limits WHERE currency_id = p_currency FOR UPDATE;
  v_new_min := least(-p_limit, v_balance);
  IF v_old_limit = p_limit AND v_min IS NOT DISTINCT FROM v_new_min THEN
    RETURN QUERY SELECT false, p_limit, v_balance, v_min;
    RETURN;
  END IF;
  UPDATE accounts SET min_balance = v_new_min WHERE id = v_acc;
  INSERT INTO house_limits (currency_id, "limit", updated_at) VALUES (p_currency, p_limit, now())
  ON CONFLICT (currency_id) DO UPDATE SET "limit" = excluded."limit", updated_at = excluded.updated_at;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'swap.house_limit.set', 'currency', p_currency::text, p_reason,
    jsonb_build_object('limit', trim_scale(v_old_limit)::text, 'minBalance', trim_scale(v_min)::text,
                       'balance', trim_scale(v_balance)::text),
    jsonb_build_object('limit', trim_scale(p_limit)::text, 'minBalance', trim_scale(v_new_min)::text,
                       'balance', trim_scale(v_balance)::text));
  RETURN QUERY SELECT true, p_limit, v_balance, v_new_min;
END $$;

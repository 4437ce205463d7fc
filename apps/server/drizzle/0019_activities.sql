-- Activities: ranking campaigns with prizes paid through the ledger (decision 015).
-- Scores are computed here from committed swaps / transfers, never counted by the app;
-- prizes come from one system 'prizes' account per currency, funded per activity from the
-- currency's adjustments account; winners are fixed once (settlement) and each is paid in a
-- transaction of its own, together with their notice, so a payout killed midway resumes.
--
-- SQLSTATEs for the application:
--   CBA04  unknown activity                                  -> 4004
--   CBA21  the activity is settled or paid (no more funding) -> 6021
--   CB010  Idempotency-Key reused with another request       -> 3010

-- The prize account is a new system account kind.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
--> statement-breakpoint
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check CHECK (
  (user_id IS NOT NULL AND kind IN ('available', 'frozen'))
  OR (user_id IS NULL AND kind IN ('world', 'house', 'fees', 'adjustments', 'prizes'))
);
--> statement-breakpoint
CREATE TABLE activities (
  id bigserial PRIMARY KEY,
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 80),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 80),
  rules_zh text NOT NULL DEFAULT '' CHECK (length(rules_zh) <= 10000),
  rules_en text NOT NULL DEFAULT '' CHECK (length(rules_en) <= 10000),
  metric text NOT NULL CHECK (metric IN ('swap_volume_usdt', 'transfers_sent')),
  -- transfers_sent: only transfers in this currency of at least min_transfer count.
  metric_currency_id integer REFERENCES currencies (id),
  min_transfer numeric(38, 18),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  min_score numeric(38, 18) NOT NULL DEFAULT 0 CHECK (min_score >= 0),
  prize_currency_id integer NOT NULL REFERENCES currencies (id),
  -- Winners fixed (activity_winners written) / every winner paid.
  settled_at timestamptz,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT activities_window_check CHECK (ends_at > starts_at),
  CONSTRAINT activities_metric_params_check CHECK (
    (metric = 'transfers_sent' AND metric_currency_id IS NOT NULL AND min_transfer > 0)
    OR (metric <> 'transfers_sent' AND metric_currency_id IS NULL AND min_transfer IS NULL)
  ),
  CONSTRAINT activities_paid_after_settled_check CHECK (paid_at IS NULL OR settled_at IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX activities_window_idx ON activities (ends_at, starts_at);
--> statement-breakpoint
CREATE TABLE activity_prizes (
  activity_id bigint NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
  rank_from integer NOT NULL CHECK (rank_from BETWEEN 1 AND 1000),
  rank_to integer NOT NULL CHECK (rank_to BETWEEN 1 AND 1000),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  PRIMARY KEY (activity_id, rank_from),
  CONSTRAINT activity_prizes_range_check CHECK (rank_to >= rank_from)
);
--> statement-breakpoint
-- One row per funding: its journal entry moved `amount` from adjustments into the prize account.
CREATE TABLE activity_fundings (
  id bigserial PRIMARY KEY,
  activity_id bigint NOT NULL REFERENCES activities (id),
  entry_id bigint NOT NULL UNIQUE REFERENCES journal_entries (id),
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  actor text NOT NULL,
  actor_user_id bigint REFERENCES users (id),
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX activity_fundings_activity_idx ON activity_fundings (activity_id);
--> statement-breakpoint
-- Winners fixed at settlement: each rank has one user and each user one rank; entry_id is set
-- (once) when the prize is paid, in the same transaction as the user's notice.
CREATE TABLE activity_winners (
  id bigserial PRIMARY KEY,
  activity_id bigint NOT NULL REFERENCES activities (id),
  rank integer NOT NULL,
  user_id bigint NOT NULL REFERENCES users (id),
  score numeric(38, 18) NOT NULL,
  amount numeric(38, 18) NOT NULL CHECK (amount > 0),
  entry_id bigint UNIQUE REFERENCES journal_entries (id),
  notice_id bigint,
  paid_at timestamptz,
  CONSTRAINT activity_winners_rank_key UNIQUE (activity_id, rank),
  CONSTRAINT activity_winners_user_key UNIQUE (activity_id, user_id),
  CONSTRAINT activity_winners_paid_check CHECK ((entry_id IS NULL) = (paid_at IS NULL))
);
--> statement-breakpoint
-- Window scans of the ranking (the only other indexes are per user).
CREATE INDEX swaps_created_idx ON swaps (created_at);
--> statement-breakpoint
CREATE INDEX transfers_created_idx ON transfers (created_at);
--> statement-breakpoint

-- The system prize account of a currency, created with a floor of 0 (it pays only what was funded).
CREATE FUNCTION activity_prize_account(p_currency integer)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = 'prizes';
  IF v_id IS NULL THEN
    INSERT INTO accounts (currency_id, user_id, kind, min_balance) VALUES (p_currency, NULL, 'prizes', 0)
    ON CONFLICT DO NOTHING;
    SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = 'prizes';
  END IF;
  RETURN v_id;
END $$;
--> statement-breakpoint

-- Every qualified user of an activity with score and rank, in one total order: score
-- descending, then who reached that score first (the time of their last counted record),
-- then uid. Only committed rows are read, so concurrent swaps never count twice or half.
--   swap_volume_usdt: each swap in the window with a USDT side adds that side: the USDT sold,
--     or the USDT bought at the swap's own rate before its fee (from_amount x rate, truncated to
--     USDT's decimals). A swap without USDT on either side adds nothing (its record holds no
--     USDT price).
--   transfers_sent: each transfer sent in the window in metric_currency of at least min_transfer adds 1.
-- The window is [starts_at, ends_at) on the record's created_at (its transaction's start).
CREATE FUNCTION coffer_activity_ranking(p_activity bigint)
RETURNS TABLE (user_id bigint, score numeric, reached_at timestamptz, rank integer)
LANGUAGE sql STABLE AS $$
  WITH a AS (SELECT * FROM activities WHERE id = p_activity),
  usdt AS (SELECT id, decimals FROM currencies WHERE code = 'USDT'),
  counted AS (
    SELECT s.user_id AS user_id,
           CASE WHEN s.from_currency_id = usdt.id THEN s.from_amount
                ELSE trunc(s.from_amount * s.rate, usdt.decimals) END AS v,
           s.created_at
    FROM a, usdt, swaps s
    WHERE a.metric = 'swap_volume_usdt'
      AND s.created_at >= a.starts_at AND s.created_at < a.ends_at
      AND usdt.id IN (s.from_currency_id, s.to_currency_id)
    UNION ALL
    SELECT t.from_user_id, 1, t.created_at
    FROM a, transfers t
    WHERE a.metric = 'transfers_sent'
      AND t.created_at >= a.starts_at AND t.created_at < a.ends_at
      AND t.currency_id = a.metric_currency_id AND t.amount >= a.min_transfer
  ),
  -- An account an operator disabled takes no rank and no prize.
  per_user AS (
    SELECT c.user_id, sum(c.v) AS score, max(c.created_at) AS reached_at
    FROM counted c JOIN users u ON u.id = c.user_id AND u.disabled_at IS NULL
    GROUP BY c.user_id
  )
  SELECT p.user_id, p.score, p.reached_at,
         (row_number() OVER (ORDER BY p.score DESC, p.reached_at ASC, p.user_id ASC))::integer
  FROM per_user p, a
  WHERE p.score > 0 AND p.score >= a.min_score
$$;
--> statement-breakpoint

-- A user's score even when below the minimum (for getUserRank).
CREATE FUNCTION coffer_activity_user_score(p_activity bigint, p_user bigint)
RETURNS numeric LANGUAGE sql STABLE AS $$
  WITH a AS (SELECT * FROM activities WHERE id = p_activity),
  usdt AS (SELECT id, decimals FROM currencies WHERE code = 'USDT')
  SELECT coalesce((
    SELECT sum(CASE WHEN s.from_currency_id = usdt.id THEN s.from_amount
                    ELSE trunc(s.from_amount * s.rate, usdt.decimals) END)
    FROM a, usdt, swaps s
    WHERE a.metric = 'swap_volume_usdt' AND s.user_id = p_user
      AND s.created_at >= a.starts_at AND s.created_at < a.ends_at
      AND usdt.id IN (s.from_currency_id, s.to_currency_id)), 0)
  + coalesce((
    SELECT count(*)
    FROM a, transfers t
    WHERE a.metric = 'transfers_sent' AND t.from_user_id = p_user
      AND t.created_at >= a.starts_at AND t.created_at < a.ends_at
      AND t.currency_id = a.metric_currency_id AND t.amount >= a.min_transfer), 0)
$$;
--> statement-breakpoint

CREATE FUNCTION activity_prize_total(p_activity bigint)
RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum((rank_to - rank_from + 1) * amount), 0) FROM activity_prizes WHERE activity_id = p_activity
$$;
--> statement-breakpoint
CREATE FUNCTION activity_funded(p_activity bigint)
RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(amount), 0) FROM activity_fundings WHERE activity_id = p_activity
$$;
--> statement-breakpoint

-- The status shown everywhere (contract activityStatus).
CREATE FUNCTION activity_status(p_activity bigint)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN a.paid_at IS NOT NULL THEN 'paid'
    WHEN a.settled_at IS NOT NULL THEN 'paying'
    WHEN now() < a.starts_at THEN 'upcoming'
    WHEN now() < a.ends_at THEN 'live'
    WHEN activity_funded(a.id) < activity_prize_total(a.id) THEN 'underfunded'
    ELSE 'ended'
  END
  FROM activities a WHERE a.id = p_activity
$$;
--> statement-breakpoint

-- Funds an activity: one entry moving p_amount from the currency's adjustments account into
-- its prizes account, the funding row and the operator audit row, in one transaction. With an
-- Idempotency-Key (scoped to the operator) a replay answers the earlier funding.
CREATE FUNCTION coffer_activity_fund(
  p_activity bigint, p_amount numeric, p_actor_user_id bigint, p_actor text, p_reason text,
  p_key text, p_hash text)
RETURNS TABLE (f_entry bigint, f_amount numeric, f_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_act activities%ROWTYPE;
  v_entry bigint;
  v_hash text;
  v_before numeric;
BEGIN
  SELECT * INTO v_act FROM activities WHERE id = p_activity FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity % not found', p_activity USING ERRCODE = 'CBA04';
  END IF;
  v_entry := ledger_open_entry('activity_fund', p_actor_user_id, p_key, p_hash, 'activity ' || p_activity);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash FROM journal_entries e
    WHERE e.user_id IS NOT DISTINCT FROM p_actor_user_id AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN QUERY SELECT f.entry_id, f.amount, true FROM activity_fundings f WHERE f.entry_id = v_entry;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'idempotency key % belongs to another operation', p_key USING ERRCODE = 'CB010';
    END IF;
    RETURN;
  END IF;
  IF v_act.settled_at IS NOT NULL THEN
    RAISE EXCEPTION 'activity % is settled', p_activity USING ERRCODE = 'CBA21';
  END IF;
  PERFORM coffer_check_amount(v_act.prize_currency_id, p_amount, false, false);
  v_before := activity_funded(p_activity);
  PERFORM ledger_post(v_entry,
    ARRAY[ledger_account(NULL, v_act.prize_currency_id, 'adjustments'), activity_prize_account(v_act.prize_currency_id)],
    ARRAY[-p_amount, p_amount]);
  INSERT INTO activity_fundings (activity_id, entry_id, amount, actor, actor_user_id, reason)
  VALUES (p_activity, v_entry, p_amount, p_actor, p_actor_user_id, p_reason);
  PERFORM coffer_operator_action(p_actor_user_id, p_actor, 'activity.fund', 'activity', p_activity::text, p_reason,
    jsonb_build_object('funded', trim_scale(v_before)::text),
    jsonb_build_object('funded', trim_scale(v_before + p_amount)::text, 'amount', trim_scale(p_amount)::text, 'entryId', v_entry));
  RETURN QUERY SELECT v_entry, p_amount, false;
END $$;
--> statement-breakpoint

-- Fixes the winners of a closed, fully funded activity (once). Returns the activity's status
-- after the call. The ranking is final only when no transaction that started before ends_at is
-- still open (a record's created_at is its transaction's start, so such a transaction could
-- still commit a record inside the window): until then the activity stays 'ended'.
CREATE FUNCTION coffer_activity_settle(p_activity bigint)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_act activities%ROWTYPE;
BEGIN
  SELECT * INTO v_act FROM activities WHERE id = p_activity FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity % not found', p_activity USING ERRCODE = 'CBA04';
  END IF;
  IF v_act.settled_at IS NOT NULL OR now() < v_act.ends_at THEN
    RETURN activity_status(p_activity);
  END IF;
  IF EXISTS (SELECT 1 FROM pg_stat_activity
             WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'
               AND datname = current_database() AND xact_start < v_act.ends_at) THEN
    RETURN 'ended';
  END IF;
  IF activity_funded(p_activity) < activity_prize_total(p_activity) THEN
    RETURN 'underfunded';
  END IF;
  INSERT INTO activity_winners (activity_id, rank, user_id, score, amount)
  SELECT p_activity, r.rank, r.user_id, r.score, pz.amount
  FROM coffer_activity_ranking(p_activity) r
  JOIN activity_prizes pz ON pz.activity_id = p_activity AND r.rank BETWEEN pz.rank_from AND pz.rank_to;
  UPDATE activities SET settled_at = now(),
    paid_at = CASE WHEN NOT EXISTS (SELECT 1 FROM activity_winners w WHERE w.activity_id = p_activity) THEN now() END
  WHERE id = p_activity;
  RETURN activity_status(p_activity);
END $$;
--> statement-breakpoint

-- Pays the next unpaid winner of a settled activity (lowest rank first): the prize entry
-- (prizes -> the winner's available balance), the winner row and the winner's notice, in the
-- caller's one transaction. The activity row lock makes concurrent payers take turns, and the
-- winner row's entry_id is set once, so nobody is paid twice. Returns the rank paid, or null when
-- nothing was left to pay (then the activity is marked paid).
CREATE FUNCTION coffer_activity_pay_next(p_activity bigint)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_act activities%ROWTYPE;
  v_win activity_winners%ROWTYPE;
  v_code text;
  v_entry bigint;
  v_notice bigint;
  v_amount text;
BEGIN
  SELECT * INTO v_act FROM activities WHERE id = p_activity FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity % not found', p_activity USING ERRCODE = 'CBA04';
  END IF;
  IF v_act.settled_at IS NULL OR v_act.paid_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  SELECT * INTO v_win FROM activity_winners
  WHERE activity_id = p_activity AND entry_id IS NULL ORDER BY rank LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    UPDATE activities SET paid_at = now() WHERE id = p_activity;
    RETURN NULL;
  END IF;
  SELECT code INTO v_code FROM currencies WHERE id = v_act.prize_currency_id;
  v_amount := trim_scale(v_win.amount)::text;
  v_entry := ledger_open_entry('activity_prize', v_win.user_id, NULL, NULL,
    'activity ' || p_activity || ' rank ' || v_win.rank);
  PERFORM ledger_post(v_entry,
    ARRAY[activity_prize_account(v_act.prize_currency_id), ledger_account(v_win.user_id, v_act.prize_currency_id, 'available')],
    ARRAY[-v_win.amount, v_win.amount]);
  v_notice := coffer_notice_to_user(v_win.user_id, 'activity_prize',
    '活动奖励已到账', 'Activity prize received',
    format('您在活动「%s」中获得第 %s 名，奖励 %s %s 已存入您的可用余额。', v_act.title_zh, v_win.rank, v_amount, v_code),
    format('You ranked #%s in "%s". Your prize of %s %s has been added to your available balance.', v_win.rank, v_act.title_en, v_amount, v_code),
    'activity:' || p_activity || ':prize:' || v_win.user_id);
  UPDATE activity_winners SET entry_id = v_entry, notice_id = v_notice, paid_at = now() WHERE id = v_win.id;
  IF NOT EXISTS (SELECT 1 FROM activity_winners WHERE activity_id = p_activity AND entry_id IS NULL) THEN
    UPDATE activities SET paid_at = now() WHERE id = p_activity;
  END IF;
  RETURN v_win.rank;
END $$;

-- Money in and out on a chain (issue #6, DESIGN §7). Custody (what the chain holds) lives in
-- these tables; what users are owed lives only in the ledger, moved by the functions below:
--   deposit credit     world -> user available                     (once, at N confirmations)
--   withdrawal hold    user available -> user frozen (amount + fee) (on apply)
--   withdrawal settle  user frozen -> world (amount) + fees (fee)   (at N confirmations)
--   withdrawal refund  user frozen -> user available (amount + fee) (cancel, reject, failure)
--
-- SQLSTATEs raised here, besides those of the ledger core:
--   CB007  not allowed in this state                 -> 3007
--   CB008  address refused                           -> 3008
--   CB009  withdrawal limit exceeded (daily)         -> 3009
--   CB012  payouts frozen on this network            -> 3012

-- One way a currency moves on a chain: the native coin (contract null) or a token contract.
CREATE TABLE networks (
  id serial PRIMARY KEY,
  currency_id integer NOT NULL REFERENCES currencies(id),
  name text NOT NULL,
  family text NOT NULL DEFAULT 'evm',
  chain_id integer NOT NULL,
  -- The chain's own coin (contract null) or a token (contract set once deployed/known; a
  -- token network without its contract is neither watched nor paid out).
  native boolean NOT NULL,
  contract text,
  token_decimals integer NOT NULL,
  confirmations integer NOT NULL,
  min_deposit numeric(38, 18) NOT NULL,
  withdraw_fee numeric(38, 18) NOT NULL,
  min_withdraw numeric(38, 18) NOT NULL,
  max_withdraw numeric(38, 18) NOT NULL,
  daily_withdraw_limit numeric(38, 18) NOT NULL,
  -- A withdrawal of at least this amount waits for an operator; null: never.
  review_threshold numeric(38, 18),
  deposit_enabled boolean NOT NULL DEFAULT true,
  withdraw_enabled boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT networks_family_check CHECK (family IN ('evm')),
  CONSTRAINT networks_decimals_check CHECK (token_decimals BETWEEN 0 AND 36),
  CONSTRAINT networks_confirmations_check CHECK (confirmations BETWEEN 1 AND 1000),
  CONSTRAINT networks_limits_check CHECK (min_deposit > 0 AND withdraw_fee >= 0 AND min_withdraw > 0
    AND max_withdraw >= min_withdraw AND daily_withdraw_limit >= 0),
  CONSTRAINT networks_contract_check CHECK (contract IS NULL OR contract ~ '^0x[0-9a-fA-F]{40}$'),
  CONSTRAINT networks_native_check CHECK (NOT native OR contract IS NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX networks_asset_key ON networks (chain_id, currency_id);
--> statement-breakpoint

-- Seed: ETH, USDT and USDC on the local chain (anvil, chain id 31337). The token contracts'
-- addresses are set at start by the local chain bootstrap (they are deployed there).
INSERT INTO networks (currency_id, name, chain_id, native, contract, token_decimals, confirmations, min_deposit,
                      withdraw_fee, min_withdraw, max_withdraw, daily_withdraw_limit, review_threshold, sort)
SELECT c.id, v.name, 31337, v.code = 'ETH', NULL, v.decimals, 3, v.min_deposit, v.fee, v.min_w, v.max_w, v.daily, v.review, v.sort
FROM (VALUES
  ('ETH', 'Ethereum (local)', 18, 0.001, 0.0005, 0.002, 100, 200, 50, 1),
  ('USDT', 'ERC-20 (local)', 6, 1, 1, 2, 100000, 200000, 50000, 2),
  ('USDC', 'ERC-20 (local)', 6, 1, 1, 2, 100000, 200000, 50000, 3)
) AS v(code, name, decimals, min_deposit, fee, min_w, max_w, daily, review, sort)
JOIN currencies c ON c.code = v.code
ON CONFLICT DO NOTHING;
--> statement-breakpoint

-- One deposit address per user and chain (all networks of a chain share it), derived from
-- the HD key at address_index; allocated once, never reused for anyone else.
CREATE SEQUENCE deposit_address_index_seq START 1;
--> statement-breakpoint
CREATE TABLE deposit_addresses (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  chain_id integer NOT NULL,
  address_index integer NOT NULL,
  address text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT deposit_addresses_index_check CHECK (address_index >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX deposit_addresses_user_key ON deposit_addresses (user_id, chain_id);
--> statement-breakpoint
CREATE UNIQUE INDEX deposit_addresses_address_key ON deposit_addresses (chain_id, lower(address));
--> statement-breakpoint
CREATE UNIQUE INDEX deposit_addresses_index_key ON deposit_addresses (chain_id, address_index);
--> statement-breakpoint

-- The watcher's position and the hashes of the blocks it has seen (reorg detection).
CREATE TABLE chain_cursors (
  chain_id integer PRIMARY KEY,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  -- The second look: blocks up to here were scanned again once N deep (an RPC node that
  -- answered an empty log list at the tip must not lose a deposit for good).
  rechecked_block bigint NOT NULL DEFAULT -1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE chain_blocks (
  chain_id integer NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  parent_hash text NOT NULL,
  PRIMARY KEY (chain_id, block_number)
);
--> statement-breakpoint

-- A transfer seen on chain to a deposit address. (network, tx_hash, log_index) is unique:
-- the same event seen again (rescan, restart, reorg and re-inclusion) is the same row.
-- log_index is -1 for a native transfer. entry_id is set exactly once, by the credit.
CREATE TABLE deposits (
  id bigserial PRIMARY KEY,
  network_id integer NOT NULL REFERENCES networks(id),
  currency_id integer NOT NULL REFERENCES currencies(id),
  user_id bigint NOT NULL REFERENCES users(id),
  address text NOT NULL,
  from_address text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  amount numeric(38, 18) NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  entry_id bigint REFERENCES journal_entries(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  credited_at timestamptz,
  CONSTRAINT deposits_amount_check CHECK (amount > 0),
  CONSTRAINT deposits_status_check CHECK (status IN ('pending', 'credited', 'dropped', 'below_minimum', 'reorged_after_credit')),
  CONSTRAINT deposits_credit_check CHECK ((status IN ('credited', 'reorged_after_credit')) = (entry_id IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX deposits_event_key ON deposits (network_id, tx_hash, log_index);
--> statement-breakpoint
CREATE UNIQUE INDEX deposits_entry_key ON deposits (entry_id);
--> statement-breakpoint
CREATE INDEX deposits_user_idx ON deposits (user_id, id);
--> statement-breakpoint
CREATE INDEX deposits_open_idx ON deposits (network_id, block_number) WHERE status = 'pending';
--> statement-breakpoint

-- Something an operator must look at: a reorg deeper than N after a credit, reconciliation
-- drift. While one is open for a network, payouts on it are frozen.
CREATE TABLE chain_incidents (
  id bigserial PRIMARY KEY,
  network_id integer REFERENCES networks(id),
  chain_id integer NOT NULL,
  kind text NOT NULL,
  detail text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by bigint REFERENCES users(id),
  resolution text,
  CONSTRAINT chain_incidents_kind_check CHECK (kind IN ('reorged_after_credit', 'reconcile_drift', 'unrecoverable_reorg'))
);
--> statement-breakpoint
CREATE INDEX chain_incidents_open_idx ON chain_incidents (chain_id) WHERE resolved_at IS NULL;
--> statement-breakpoint

-- A withdrawal's life: review -> queued -> broadcast -> confirming -> completed, or
-- failed / cancelled / rejected (money back to available). Its ledger entries are listed in
-- withdrawal_entries (hold, then settle or refund).
CREATE TABLE withdrawals (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  network_id integer NOT NULL REFERENCES networks(id),
  currency_id integer NOT NULL REFERENCES currencies(id),
  address text NOT NULL,
  amount numeric(38, 18) NOT NULL,
  fee numeric(38, 18) NOT NULL,
  memo text,
  status text NOT NULL,
  reason text,
  reviewed_by bigint REFERENCES users(id),
  nonce bigint,
  tx_hash text,
  block_number bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  broadcast_at timestamptz,
  completed_at timestamptz,
  CONSTRAINT withdrawals_amount_check CHECK (amount > 0 AND fee >= 0),
  CONSTRAINT withdrawals_status_check CHECK (status IN ('review', 'queued', 'broadcast', 'confirming', 'completed', 'failed', 'cancelled', 'rejected'))
);
--> statement-breakpoint
CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, id);
--> statement-breakpoint
CREATE INDEX withdrawals_open_idx ON withdrawals (network_id, id) WHERE status IN ('review', 'queued', 'broadcast', 'confirming');
--> statement-breakpoint
CREATE UNIQUE INDEX withdrawals_nonce_key ON withdrawals (network_id, nonce) WHERE nonce IS NOT NULL;
--> statement-breakpoint
CREATE TABLE withdrawal_entries (
  id bigserial PRIMARY KEY,
  withdrawal_id bigint NOT NULL REFERENCES withdrawals(id),
  entry_id bigint NOT NULL REFERENCES journal_entries(id),
  kind text NOT NULL,
  CONSTRAINT withdrawal_entries_kind_check CHECK (kind IN ('withdraw_hold', 'withdraw_settle', 'withdraw_refund'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX withdrawal_entries_entry_key ON withdrawal_entries (entry_id);
--> statement-breakpoint
CREATE UNIQUE INDEX withdrawal_entries_kind_key ON withdrawal_entries (withdrawal_id, kind);
--> statement-breakpoint

-- Every signed transaction of the hot wallet and the deposit addresses (withdrawals, fee
-- bumps, sweeps, gas top-ups). Stored before it is broadcast, so a restart re-sends the same
-- signed bytes (same hash, same nonce) and never signs a second payment blindly.
CREATE TABLE chain_txs (
  id bigserial PRIMARY KEY,
  chain_id integer NOT NULL,
  purpose text NOT NULL,
  withdrawal_id bigint REFERENCES withdrawals(id),
  sweep_id bigint,
  from_address text NOT NULL,
  nonce bigint NOT NULL,
  tx_hash text NOT NULL,
  raw_tx text NOT NULL,
  gas_price numeric(78, 0) NOT NULL,
  status text NOT NULL DEFAULT 'sent',
  block_number bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT chain_txs_purpose_check CHECK (purpose IN ('withdrawal', 'sweep', 'gas_topup')),
  CONSTRAINT chain_txs_status_check CHECK (status IN ('sent', 'mined', 'reverted', 'replaced'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX chain_txs_hash_key ON chain_txs (chain_id, tx_hash);
--> statement-breakpoint
CREATE INDEX chain_txs_sender_idx ON chain_txs (chain_id, lower(from_address), nonce);
--> statement-breakpoint

-- Nonces of the hot wallet are assigned here, in the transaction that marks a withdrawal
-- broadcast, so they are gapless and never handed out twice.
CREATE TABLE chain_nonces (
  chain_id integer NOT NULL,
  address text NOT NULL,
  next_nonce bigint NOT NULL,
  PRIMARY KEY (chain_id, address)
);
--> statement-breakpoint

-- Moving deposited funds from deposit addresses to the hot wallet (custody only: the ledger
-- does not change). A token sweep first gets gas from the hot wallet.
CREATE TABLE sweeps (
  id bigserial PRIMARY KEY,
  network_id integer NOT NULL REFERENCES networks(id),
  deposit_address text NOT NULL,
  address_index integer NOT NULL,
  amount numeric(78, 0) NOT NULL,
  status text NOT NULL DEFAULT 'gas_required',
  gas_tx_hash text,
  tx_hash text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sweeps_status_check CHECK (status IN ('gas_required', 'waiting_for_gas', 'ready', 'sent', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX sweeps_open_idx ON sweeps (network_id) WHERE status NOT IN ('done', 'failed');
--> statement-breakpoint

-- A user's live events (deposit seen, confirmed, credited; withdrawal progress). The SSE
-- stream resumes from Last-Event-ID = id. Old rows are pruned by the watcher.
CREATE TABLE user_events (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  type text NOT NULL,
  ref_id bigint NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX user_events_user_idx ON user_events (user_id, id);
--> statement-breakpoint

-- Payouts are frozen on a network while an incident is open for it or for its whole chain.
-- A credit that a reorg took back freezes the whole chain: the unbacked balance could be
-- swapped or transferred into another currency and paid out on another network.
CREATE OR REPLACE FUNCTION chain_payouts_frozen(p_network integer)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM chain_incidents i JOIN networks n ON n.id = p_network
    WHERE i.resolved_at IS NULL AND i.chain_id = n.chain_id
      AND (i.network_id IS NULL OR i.network_id = p_network OR i.kind IN ('reorged_after_credit', 'unrecoverable_reorg'))
  )
$$;
--> statement-breakpoint

-- Credits, exactly once, every pending deposit of a chain that has its N confirmations at
-- p_height and still sits in the block the watcher has on record: world -> user available,
-- one journal entry per deposit. Set-based (a watcher catching up credits hundreds at once):
-- the deposit rows and all their accounts are locked (accounts in id order), each account's
-- postings carry its running balance in id order, and every entry must sum to zero. A
-- deposit already credited is not pending, so a second call (restart, second watcher)
-- credits nothing. Returns the credited deposits.
CREATE OR REPLACE FUNCTION coffer_deposit_credit_due(p_chain integer, p_height bigint)
RETURNS TABLE (c_id bigint) LANGUAGE plpgsql AS $$
DECLARE
  v_ids bigint[];
  v_unbalanced integer;
BEGIN
  SELECT array_agg(d.id ORDER BY d.id) INTO v_ids FROM (
    SELECT d.id FROM deposits d JOIN networks n ON n.id = d.network_id
    LEFT JOIN chain_blocks b ON b.chain_id = n.chain_id AND b.block_number = d.block_number
    WHERE n.chain_id = p_chain AND d.status = 'pending' AND p_height - d.block_number + 1 >= n.confirmations
      AND (b.block_hash IS NULL OR b.block_hash = d.block_hash)
    ORDER BY d.id FOR UPDATE OF d
  ) d;
  IF v_ids IS NULL THEN
    RETURN;
  END IF;

  -- Accounts first (created on first use), then every one of them locked in id order.
  CREATE TEMP TABLE IF NOT EXISTS coffer_credit_tmp (
    deposit_id bigint, entry_id bigint, user_id bigint, currency_id integer, amount numeric,
    world_acc bigint, user_acc bigint) ON COMMIT DROP;
  TRUNCATE coffer_credit_tmp;
  -- Each distinct account is resolved once (ledger_account creates it on first use).
  WITH dep AS (
    SELECT d.id, d.user_id, d.currency_id, d.amount, x.ord
    FROM deposits d JOIN unnest(v_ids) WITH ORDINALITY AS x(id, ord) ON x.id = d.id
  ), worlds AS (
    SELECT c.currency_id, ledger_account(NULL, c.currency_id, 'world') AS acc FROM (SELECT DISTINCT currency_id FROM dep) c
  ), users AS (
    SELECT u.user_id, u.currency_id, ledger_account(u.user_id, u.currency_id, 'available') AS acc
    FROM (SELECT DISTINCT user_id, currency_id FROM dep) u
  )
  INSERT INTO coffer_credit_tmp
  SELECT dep.id, nextval(pg_get_serial_sequence('journal_entries', 'id')), dep.user_id, dep.currency_id, dep.amount, w.acc, u.acc
  FROM dep JOIN worlds w ON w.currency_id = dep.currency_id
  JOIN users u ON u.user_id = dep.user_id AND u.currency_id = dep.currency_id
  ORDER BY dep.ord;
  PERFORM 1 FROM accounts WHERE id IN (SELECT world_acc FROM coffer_credit_tmp UNION SELECT user_acc FROM coffer_credit_tmp)
  ORDER BY id FOR UPDATE;

  INSERT INTO journal_entries (id, kind, user_id) SELECT entry_id, 'deposit', user_id FROM coffer_credit_tmp ORDER BY entry_id;
  -- Two postings per entry (world first); ids follow (entry, side), so each account's
  -- balance_after runs in id order.
  INSERT INTO postings (entry_id, account_id, currency_id, amount, balance_after)
  SELECT p.entry_id, p.account_id, p.currency_id, p.amount,
         a.balance + sum(p.amount) OVER (PARTITION BY p.account_id ORDER BY p.entry_id, p.side)
  FROM (
    SELECT entry_id, world_acc AS account_id, currency_id, -amount AS amount, 0 AS side FROM coffer_credit_tmp
    UNION ALL
    SELECT entry_id, user_acc, currency_id, amount, 1 FROM coffer_credit_tmp
  ) p JOIN accounts a ON a.id = p.account_id
  ORDER BY p.entry_id, p.side;
  UPDATE accounts a SET balance = a.balance + s.total
  FROM (SELECT account_id, sum(amount) AS total FROM (
          SELECT world_acc AS account_id, -amount AS amount FROM coffer_credit_tmp
          UNION ALL SELECT user_acc, amount FROM coffer_credit_tmp) q GROUP BY account_id) s
  WHERE a.id = s.account_id;

  -- Invariant: money is neither created nor destroyed, per entry and currency.
  SELECT count(*) INTO v_unbalanced FROM (
    SELECT p.entry_id FROM postings p JOIN coffer_credit_tmp t ON t.entry_id = p.entry_id
    GROUP BY p.entry_id, p.currency_id HAVING sum(p.amount) <> 0 OR count(*) <> 2
  ) u;
  IF v_unbalanced > 0 THEN
    RAISE EXCEPTION 'coffer_deposit_credit_due: % unbalanced entries', v_unbalanced USING ERRCODE = 'CB900';
  END IF;

  UPDATE deposits d SET status = 'credited', entry_id = t.entry_id, credited_at = now(), updated_at = now()
  FROM coffer_credit_tmp t WHERE d.id = t.deposit_id;
  INSERT INTO user_events (user_id, type, ref_id, status)
  SELECT user_id, 'deposit', deposit_id, 'credited' FROM coffer_credit_tmp ORDER BY deposit_id;
  RETURN QUERY SELECT deposit_id FROM coffer_credit_tmp ORDER BY deposit_id;
END $$;
--> statement-breakpoint

-- Applies for a withdrawal: checks the network, the amount (decimals, min, max, daily limit)
-- and the payout freeze, then holds amount + fee (available -> frozen). With an idempotency
-- key a replay answers the stored withdrawal (w_replayed) and a reused key raises CB010.
CREATE OR REPLACE FUNCTION coffer_withdraw_apply(
  p_user bigint, p_network integer, p_address text, p_amount numeric, p_memo text, p_key text, p_hash text)
RETURNS TABLE (w_id bigint, w_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_net networks%ROWTYPE;
  v_entry bigint;
  v_hash text;
  v_id bigint;
  v_decimals integer;
  v_today numeric;
  v_total numeric;
  v_available bigint;
BEGIN
  v_entry := ledger_open_entry('withdraw_hold', p_user, p_key, p_hash, p_memo);
  IF v_entry IS NULL THEN
    SELECT e.id, e.request_hash INTO v_entry, v_hash FROM journal_entries e WHERE e.user_id = p_user AND e.idempotency_key = p_key;
    IF v_hash IS DISTINCT FROM p_hash THEN
      RAISE EXCEPTION 'idempotency key % reused with another request', p_key USING ERRCODE = 'CB010';
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

-- Ends a withdrawal that paid nothing out (cancelled, rejected, failed): frozen -> available.
-- p_from lists the states it may leave; any other state raises CB007 and changes nothing.
CREATE OR REPLACE FUNCTION coffer_withdraw_refund(p_withdrawal bigint, p_status text, p_reason text, p_from text[], p_actor bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_w withdrawals%ROWTYPE;
  v_entry bigint;
BEGIN
  IF p_status NOT IN ('cancelled', 'rejected', 'failed') THEN
    RAISE EXCEPTION 'coffer_withdraw_refund: % is not a refund state', p_status USING ERRCODE = 'CB900';
  END IF;
  SELECT * INTO v_w FROM withdrawals WHERE id = p_withdrawal FOR UPDATE;
  IF NOT FOUND OR NOT (v_w.status = ANY (p_from)) THEN
    RAISE EXCEPTION 'withdrawal % is not in a state that allows %', p_withdrawal, p_status USING ERRCODE = 'CB007';
  END IF;
  v_entry := ledger_open_entry('withdraw_refund', v_w.user_id, NULL, NULL, NULL);
  PERFORM ledger_post(v_entry,
    ARRAY[ledger_account(v_w.user_id, v_w.currency_id, 'frozen'), ledger_account(v_w.user_id, v_w.currency_id, 'available')],
    ARRAY[-(v_w.amount + v_w.fee), v_w.amount + v_w.fee]);
  INSERT INTO withdrawal_entries (withdrawal_id, entry_id, kind) VALUES (p_withdrawal, v_entry, 'withdraw_refund');
  UPDATE withdrawals SET status = p_status, reason = p_reason, updated_at = now(), completed_at = now(),
    reviewed_by = CASE WHEN p_status = 'rejected' THEN p_actor ELSE reviewed_by END
  WHERE id = p_withdrawal;
  INSERT INTO user_events (user_id, type, ref_id, status) VALUES (v_w.user_id, 'withdraw', p_withdrawal, p_status);
END $$;
--> statement-breakpoint

-- Settles a withdrawal confirmed on chain: frozen -> world (the amount left Coffer) and
-- fees (Coffer's fee). Only from 'confirming'; a second call raises CB007.
CREATE OR REPLACE FUNCTION coffer_withdraw_settle(p_withdrawal bigint, p_tx_hash text, p_block bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_w withdrawals%ROWTYPE;
  v_entry bigint;
BEGIN
  SELECT * INTO v_w FROM withdrawals WHERE id = p_withdrawal FOR UPDATE;
  IF NOT FOUND OR v_w.status NOT IN ('broadcast', 'confirming') THEN
    RAISE EXCEPTION 'withdrawal % cannot settle from its state', p_withdrawal USING ERRCODE = 'CB007';
  END IF;
  v_entry := ledger_open_entry('withdraw_settle', v_w.user_id, NULL, NULL, NULL);
  IF v_w.fee > 0 THEN
    PERFORM ledger_post(v_entry,
      ARRAY[ledger_account(v_w.user_id, v_w.currency_id, 'frozen'), ledger_account(NULL, v_w.currency_id, 'world'),
            ledger_account(NULL, v_w.currency_id, 'fees')],
      ARRAY[-(v_w.amount + v_w.fee), v_w.amount, v_w.fee]);
  ELSE
    PERFORM ledger_post(v_entry,
      ARRAY[ledger_account(v_w.user_id, v_w.currency_id, 'frozen'), ledger_account(NULL, v_w.currency_id, 'world')],
      ARRAY[-v_w.amount, v_w.amount]);
  END IF;
  INSERT INTO withdrawal_entries (withdrawal_id, entry_id, kind) VALUES (p_withdrawal, v_entry, 'withdraw_settle');
  UPDATE withdrawals SET status = 'completed', tx_hash = p_tx_hash, block_number = p_block, updated_at = now(), completed_at = now()
  WHERE id = p_withdrawal;
  INSERT INTO user_events (user_id, type, ref_id, status) VALUES (v_w.user_id, 'withdraw', p_withdrawal, 'completed');
END $$;

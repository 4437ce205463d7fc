-- Gas and the operator's float in the ledger, exact reconciliation, hot and cold wallets
-- (docs/decisions/038-gas-float-exact-reconciliation.md).
--   float account   one per network (accounts.network_id, kind 'float', user_id null): the
--                   operator's own coins in custody (equity). Funding the hot wallet books
--                   world -> float once per chain transaction (chain_fundings); every gas
--                   payment books float -> world once per mined transaction (chain_gas); a
--                   deposit below the network's minimum is booked world -> float at finality
--                   (deposit_unclaimed), so custody and the ledger stay equal to the wei.
--   hot_alerts      an operator alert per network and condition (hot wallet below its floor),
--                   opened once and closed when the condition ends.
-- SQLSTATEs raised here: CB031 funding refused (-> 3031), CB032 gas booking refused (-> 3032).
ALTER TABLE accounts ADD COLUMN network_id integer REFERENCES networks(id);
--> statement-breakpoint
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
--> statement-breakpoint
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check CHECK (
  (user_id IS NOT NULL AND kind IN ('available', 'frozen'))
  OR (user_id IS NULL AND kind IN ('world', 'house', 'fees', 'adjustments', 'prizes', 'float'))
);
--> statement-breakpoint
-- Only the float is per network; every other account stays one per (owner, currency, kind).
ALTER TABLE accounts ADD CONSTRAINT accounts_network_check CHECK ((kind = 'float') = (network_id IS NOT NULL));
--> statement-breakpoint
DROP INDEX accounts_system_key;
--> statement-breakpoint
CREATE UNIQUE INDEX accounts_system_key ON accounts (currency_id, kind) WHERE user_id IS NULL AND network_id IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX accounts_float_key ON accounts (network_id) WHERE network_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE chain_txs DROP CONSTRAINT chain_txs_purpose_check;
--> statement-breakpoint
ALTER TABLE chain_txs ADD CONSTRAINT chain_txs_purpose_check CHECK (purpose IN ('withdrawal', 'sweep', 'gas_topup', 'cold'));
--> statement-breakpoint
-- The network a hot -> cold move belongs to (the other purposes find theirs through their withdrawal or sweep).
ALTER TABLE chain_txs ADD COLUMN network_id integer REFERENCES networks(id);
--> statement-breakpoint
CREATE TABLE chain_fundings (
  id bigserial PRIMARY KEY,
  network_id integer NOT NULL REFERENCES networks(id),
  tx_hash text NOT NULL,
  amount numeric(38, 18) NOT NULL,
  reason text NOT NULL,
  actor text NOT NULL,
  actor_user_id bigint REFERENCES users(id),
  entry_id bigint NOT NULL REFERENCES journal_entries(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT chain_fundings_amount_check CHECK (amount > 0),
  CONSTRAINT chain_fundings_hash_check CHECK (tx_hash ~ '^0x[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX chain_fundings_tx_key ON chain_fundings (network_id, tx_hash);
--> statement-breakpoint
CREATE UNIQUE INDEX chain_fundings_entry_key ON chain_fundings (entry_id);
--> statement-breakpoint
CREATE TABLE chain_gas (
  id bigserial PRIMARY KEY,
  chain_tx_id bigint NOT NULL REFERENCES chain_txs(id),
  network_id integer NOT NULL REFERENCES networks(id),
  gas_used numeric(78, 0) NOT NULL,
  gas_price numeric(78, 0) NOT NULL,
  amount numeric(38, 18) NOT NULL,
  block_number bigint NOT NULL,
  entry_id bigint NOT NULL REFERENCES journal_entries(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT chain_gas_amount_check CHECK (gas_used > 0 AND gas_price >= 0 AND amount > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX chain_gas_tx_key ON chain_gas (chain_tx_id);
--> statement-breakpoint
CREATE UNIQUE INDEX chain_gas_entry_key ON chain_gas (entry_id);
--> statement-breakpoint
CREATE TABLE deposit_unclaimed (
  id bigserial PRIMARY KEY,
  deposit_id bigint NOT NULL REFERENCES deposits(id),
  entry_id bigint NOT NULL REFERENCES journal_entries(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX deposit_unclaimed_deposit_key ON deposit_unclaimed (deposit_id);
--> statement-breakpoint
CREATE UNIQUE INDEX deposit_unclaimed_entry_key ON deposit_unclaimed (entry_id);
--> statement-breakpoint
CREATE TABLE hot_alerts (
  id bigserial PRIMARY KEY,
  network_id integer NOT NULL REFERENCES networks(id),
  kind text NOT NULL,
  detail text NOT NULL,
  amount numeric(38, 18) NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  CONSTRAINT hot_alerts_kind_check CHECK (kind IN ('below_floor')),
  CONSTRAINT hot_alerts_amount_check CHECK (amount > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX hot_alerts_open_key ON hot_alerts (network_id, kind) WHERE closed_at IS NULL;
--> statement-breakpoint
-- The latest reconciliation per network, for the console (hot, cold, deposit addresses,
-- float, drift) without reading the chain on every page view.
CREATE TABLE reconcile_snapshots (
  network_id integer PRIMARY KEY REFERENCES networks(id),
  block_number bigint NOT NULL,
  hot numeric(78, 18) NOT NULL,
  cold numeric(78, 18) NOT NULL,
  deposit_addresses numeric(78, 18) NOT NULL,
  float numeric(78, 18) NOT NULL,
  drift numeric(78, 18) NOT NULL,
  ok boolean NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The network's float account, created on first use.
CREATE OR REPLACE FUNCTION ledger_float_account(p_network integer)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM accounts WHERE network_id = p_network;
  IF v_id IS NOT NULL THEN
    RETURN v_id;
  END IF;
  INSERT INTO accounts (currency_id, user_id, kind, network_id, min_balance)
  SELECT n.currency_id, NULL, 'float', n.id, NULL FROM networks n WHERE n.id = p_network
  ON CONFLICT DO NOTHING RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM accounts WHERE network_id = p_network;
  END IF;
  IF v_id IS NULL THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB031';
  END IF;
  RETURN v_id;
END $$;
--> statement-breakpoint
-- Books the operator's funding of the hot (or cold) wallet, verified on chain by the caller:
-- world -> float, once per (network, transaction) whatever the caller retries, audited.
-- Returns the funding and whether it was booked before (f_replayed).
CREATE OR REPLACE FUNCTION coffer_float_fund(
  p_network integer, p_tx_hash text, p_amount numeric, p_reason text, p_actor text, p_actor_user bigint)
RETURNS TABLE (f_id bigint, f_entry bigint, f_amount numeric, f_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_currency integer;
  v_entry bigint;
  v_id bigint;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a funding needs a reason and an actor' USING ERRCODE = 'CB031';
  END IF;
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'a funding must be positive' USING ERRCODE = 'CB031';
  END IF;
  SELECT currency_id INTO v_currency FROM networks WHERE id = p_network;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB031';
  END IF;
  -- one funding per transaction: a second call answers the first booking
  PERFORM 1 FROM networks WHERE id = p_network FOR UPDATE;
  RETURN QUERY SELECT f.id, f.entry_id, f.amount, true FROM chain_fundings f
    WHERE f.network_id = p_network AND f.tx_hash = lower(p_tx_hash);
  IF FOUND THEN
    RETURN;
  END IF;
  v_entry := ledger_open_entry('float_fund', p_actor_user, NULL, NULL, btrim(p_reason));
  PERFORM ledger_post(v_entry, ARRAY[ledger_account(NULL, v_currency, 'world'), ledger_float_account(p_network)],
    ARRAY[-p_amount, p_amount]);
  INSERT INTO chain_fundings (network_id, tx_hash, amount, reason, actor, actor_user_id, entry_id)
  VALUES (p_network, lower(p_tx_hash), p_amount, btrim(p_reason), btrim(p_actor), p_actor_user, v_entry)
  RETURNING id INTO v_id;
  PERFORM coffer_operator_action(p_actor_user, btrim(p_actor), 'chain.fund', 'network', p_network::text, btrim(p_reason), NULL,
    jsonb_build_object('txHash', lower(p_tx_hash), 'amount', p_amount::text, 'entryId', v_entry));
  RETURN QUERY SELECT v_id, v_entry, p_amount, false;
END $$;
--> statement-breakpoint
-- Books the gas of one chain transaction whose receipt is final on chain (the caller read it:
-- its status column may lag the chain): float -> world of gasUsed x effectiveGasPrice on the
-- chain's native network, exactly once per chain_tx (chain_gas_tx_key). Returns false when it
-- was booked already.
CREATE OR REPLACE FUNCTION coffer_gas_book(p_chain_tx bigint, p_gas_used numeric, p_gas_price numeric, p_block bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_tx chain_txs%ROWTYPE;
  v_net networks%ROWTYPE;
  v_amount numeric;
  v_entry bigint;
BEGIN
  SELECT * INTO v_tx FROM chain_txs WHERE id = p_chain_tx FOR UPDATE;
  IF NOT FOUND OR v_tx.status = 'replaced' THEN
    RAISE EXCEPTION 'chain transaction % was replaced', p_chain_tx USING ERRCODE = 'CB032';
  END IF;
  IF EXISTS (SELECT 1 FROM chain_gas WHERE chain_tx_id = p_chain_tx) THEN
    RETURN false;
  END IF;
  SELECT * INTO v_net FROM networks WHERE chain_id = v_tx.chain_id AND native ORDER BY id LIMIT 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no native network on chain %', v_tx.chain_id USING ERRCODE = 'CB032';
  END IF;
  IF p_gas_used IS NULL OR p_gas_used <= 0 OR p_gas_price IS NULL OR p_gas_price < 0 THEN
    RAISE EXCEPTION 'gas of chain transaction % must be positive', p_chain_tx USING ERRCODE = 'CB032';
  END IF;
  v_amount := p_gas_used * p_gas_price / (10::numeric ^ v_net.token_decimals);
  IF v_amount = 0 THEN
    RETURN false;
  END IF;
  v_entry := ledger_open_entry('gas', NULL, NULL, NULL, 'gas of ' || v_tx.purpose || ' ' || v_tx.tx_hash);
  PERFORM ledger_post(v_entry, ARRAY[ledger_float_account(v_net.id), ledger_account(NULL, v_net.currency_id, 'world')],
    ARRAY[-v_amount, v_amount]);
  INSERT INTO chain_gas (chain_tx_id, network_id, gas_used, gas_price, amount, block_number, entry_id)
  VALUES (p_chain_tx, v_net.id, p_gas_used, p_gas_price, v_amount, p_block, v_entry);
  RETURN true;
END $$;
--> statement-breakpoint
-- Books a deposit below the network's minimum, final on chain, into the network's float:
-- the coins are in custody but owed to no user, so they are the operator's (world -> float).
CREATE OR REPLACE FUNCTION coffer_deposit_unclaimed_book(p_deposit bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_d deposits%ROWTYPE;
  v_entry bigint;
BEGIN
  SELECT * INTO v_d FROM deposits WHERE id = p_deposit FOR UPDATE;
  IF NOT FOUND OR v_d.status <> 'below_minimum' THEN
    RAISE EXCEPTION 'deposit % is not below the minimum', p_deposit USING ERRCODE = 'CB032';
  END IF;
  IF EXISTS (SELECT 1 FROM deposit_unclaimed WHERE deposit_id = p_deposit) THEN
    RETURN false;
  END IF;
  v_entry := ledger_open_entry('unclaimed_deposit', NULL, NULL, NULL, 'deposit ' || p_deposit || ' below the minimum');
  PERFORM ledger_post(v_entry, ARRAY[ledger_account(NULL, v_d.currency_id, 'world'), ledger_float_account(v_d.network_id)],
    ARRAY[-v_d.amount, v_d.amount]);
  INSERT INTO deposit_unclaimed (deposit_id, entry_id) VALUES (p_deposit, v_entry);
  RETURN true;
END $$;

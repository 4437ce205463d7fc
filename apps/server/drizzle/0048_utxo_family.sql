-- The UTXO family beside the EVM one (docs/decisions/048-utxo-family.md): networks of family
-- 'utxo' (Bitcoin Core, Litecoin Core over JSON-RPC), LTC as a currency with its regtest
-- network, and the custody table of unspent outputs.

ALTER TABLE networks DROP CONSTRAINT networks_family_check;
--> statement-breakpoint
ALTER TABLE networks ADD CONSTRAINT networks_family_check CHECK (family IN ('evm', 'utxo'));
--> statement-breakpoint
-- A UTXO chain moves one asset, its coin: no token contracts.
ALTER TABLE networks ADD CONSTRAINT networks_utxo_native_check CHECK (family <> 'utxo' OR (native AND contract IS NULL));
--> statement-breakpoint

INSERT INTO currencies (code, name, decimals, icon, sort) VALUES ('LTC', 'Litecoin', 8, '/currency/ltc.svg', 5)
ON CONFLICT (code) DO NOTHING;
--> statement-breakpoint
-- The system accounts every currency has from the start (as migration 0002 seeds them).
INSERT INTO accounts (currency_id, user_id, kind, min_balance)
SELECT c.id, NULL, k.kind, k.floor
FROM currencies c
CROSS JOIN (VALUES ('world', NULL::numeric), ('adjustments', NULL::numeric), ('fees', 0::numeric), ('house', 0::numeric)) AS k(kind, floor)
WHERE c.code = 'LTC'
ON CONFLICT DO NOTHING;
--> statement-breakpoint

-- Litecoin regtest on its synthetic chain id (UTXO_NETWORKS['litecoin-regtest'].chainId in
-- apps/server/src/chain/utxo/params.ts): a UTXO chain has no EIP-155 id. Deposits and
-- withdrawals start disabled: the server enables them when it runs a node for the chain
-- (an address of this network must come from the UTXO deriver, never the EVM one).
INSERT INTO networks (currency_id, name, family, chain_id, native, contract, token_decimals, confirmations, min_deposit,
                      withdraw_fee, min_withdraw, max_withdraw, daily_withdraw_limit, review_threshold, sort,
                      deposit_enabled, withdraw_enabled)
SELECT c.id, 'Litecoin (regtest)', 'utxo', 2147418146, true, NULL, 8, 2, 0.001, 0.001, 0.01, 1000, 2000, 500, 10, false, false
FROM currencies c WHERE c.code = 'LTC'
ON CONFLICT DO NOTHING;
--> statement-breakpoint

-- Unspent outputs Coffer controls on a UTXO network, kept in step with the chain: an output
-- is recorded when its deposit is credited and removed when a reorg takes the deposit back.
--   available  spendable by the next payout
--   reserved   an input of a payout transaction being built or broadcast
--   spent      an input of a mined payout transaction (spent_by)
-- value is in base units (satoshis, litoshis).
CREATE TABLE utxo_outputs (
  id bigserial PRIMARY KEY,
  network_id integer NOT NULL REFERENCES networks(id),
  txid text NOT NULL,
  vout integer NOT NULL,
  value bigint NOT NULL,
  address text NOT NULL,
  deposit_id bigint REFERENCES deposits(id),
  state text NOT NULL DEFAULT 'available',
  block_hash text NOT NULL,
  block_number bigint NOT NULL,
  spent_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT utxo_outputs_state_check CHECK (state IN ('available', 'reserved', 'spent')),
  CONSTRAINT utxo_outputs_value_check CHECK (value > 0 AND vout >= 0),
  CONSTRAINT utxo_outputs_spent_check CHECK (state <> 'spent' OR spent_by IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX utxo_outputs_outpoint_key ON utxo_outputs (network_id, txid, vout);
--> statement-breakpoint
CREATE INDEX utxo_outputs_available_idx ON utxo_outputs (network_id, value) WHERE state = 'available';
--> statement-breakpoint
CREATE UNIQUE INDEX utxo_outputs_deposit_key ON utxo_outputs (deposit_id);
--> statement-breakpoint

-- Follows a UTXO deposit's status, in the transaction that changes it (the credit, the
-- rewind): credited -> its output becomes available; taken back by a reorg -> an output no
-- payout has picked is removed (one already reserved or spent stays for its payout to settle).
-- The deposit's amount is the output's value: a UTXO coin's currency has its chain's decimals.
CREATE FUNCTION coffer_utxo_output_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'credited' THEN
    INSERT INTO utxo_outputs (network_id, txid, vout, value, address, deposit_id, block_hash, block_number)
    SELECT NEW.network_id, NEW.tx_hash, NEW.log_index, (NEW.amount * power(10::numeric, n.token_decimals))::bigint,
           NEW.address, NEW.id, NEW.block_hash, NEW.block_number
    FROM networks n WHERE n.id = NEW.network_id AND n.family = 'utxo'
    ON CONFLICT (network_id, txid, vout) DO UPDATE
      SET deposit_id = excluded.deposit_id, block_hash = excluded.block_hash, block_number = excluded.block_number, updated_at = now();
  ELSIF NEW.status IN ('dropped', 'reorged_after_credit') THEN
    DELETE FROM utxo_outputs WHERE deposit_id = NEW.id AND state = 'available';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER deposits_utxo_output AFTER UPDATE OF status ON deposits
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION coffer_utxo_output_follow();

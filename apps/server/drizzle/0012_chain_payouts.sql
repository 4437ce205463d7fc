-- The withdrawal sender and the sweeper (apps/server/src/chain/{sender,sweeper,txs,nonces}.ts).
--
-- chain_txs.sent_head: the chain head when the attempt was signed, so a fee bump can wait a
-- number of blocks (bumpAfterBlocks) as well as a time. last_error: the node's answer to the
-- latest broadcast of this attempt that was refused (kept for operators; cleared on success).
ALTER TABLE chain_txs ADD COLUMN sent_head bigint;
--> statement-breakpoint
ALTER TABLE chain_txs ADD COLUMN last_error text;
--> statement-breakpoint
CREATE INDEX chain_txs_withdrawal_idx ON chain_txs (withdrawal_id) WHERE withdrawal_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX chain_txs_sweep_idx ON chain_txs (sweep_id) WHERE sweep_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX chain_txs_open_idx ON chain_txs (chain_id, lower(from_address)) WHERE status = 'sent';
--> statement-breakpoint

-- A token sweep is priced when its gas is requested: the hot wallet tops the deposit address
-- up with exactly gas_limit x gas_price, and the sweep spends that at that price.
-- nonce: the deposit address's nonce of the sweep transaction (replacements reuse it).
ALTER TABLE sweeps ADD COLUMN gas_limit numeric(78, 0);
--> statement-breakpoint
ALTER TABLE sweeps ADD COLUMN gas_price numeric(78, 0);
--> statement-breakpoint
ALTER TABLE sweeps ADD COLUMN nonce bigint;
--> statement-breakpoint
CREATE INDEX sweeps_address_idx ON sweeps (lower(deposit_address)) WHERE status NOT IN ('done', 'failed');
--> statement-breakpoint

-- What the sweeper last looked at per deposit address and network: the number of credited
-- deposits then. A new credit makes the address a candidate again; an address whose balance
-- was below the sweep threshold is not read from the chain again until then.
CREATE TABLE sweep_checks (
  network_id integer NOT NULL REFERENCES networks(id),
  address text NOT NULL,
  credited_count bigint NOT NULL,
  checked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network_id, address)
);

-- UTXO payouts (docs/decisions/051-utxo-payouts.md): queued withdrawals of a UTXO network are
-- paid in batches, one transaction per batch, signed by the signer from the network's
-- available outputs, with change to an internal BIP-84 change address (m/84'/coin'/0'/1/<batch id>).
--   utxo_batches       one payout transaction's life: broadcast (signed, stored, sent; not
--                      mined) -> confirming (one attempt mined, fewer than N confirmations)
--                      -> completed (N deep: withdrawals settled, inputs spent, change
--                      recorded, miner fee booked), or back from confirming to broadcast when
--                      a reorg takes the block away.
--   utxo_batch_txs     every signed attempt of a batch (the first and its replace-by-fee
--                      replacements: same inputs, same payouts, less change), stored before it
--                      is broadcast; whichever is mined settles the batch.
-- Amounts of both tables are base units (satoshis, litoshis); fee rates are base units per
-- virtual byte.
ALTER TABLE networks ADD COLUMN fee_rate_floor bigint;
--> statement-breakpoint
ALTER TABLE networks ADD COLUMN fee_rate_cap bigint;
--> statement-breakpoint
UPDATE networks SET fee_rate_floor = 1, fee_rate_cap = 500 WHERE family = 'utxo';
--> statement-breakpoint
ALTER TABLE networks ADD CONSTRAINT networks_fee_rate_check CHECK (
  (family = 'utxo') = (fee_rate_floor IS NOT NULL AND fee_rate_cap IS NOT NULL)
  AND (fee_rate_floor IS NULL OR (fee_rate_floor >= 1 AND fee_rate_cap >= fee_rate_floor AND fee_rate_cap <= 100000))
);
--> statement-breakpoint
CREATE TABLE utxo_batches (
  id bigserial PRIMARY KEY,
  network_id integer NOT NULL REFERENCES networks(id),
  status text NOT NULL DEFAULT 'broadcast',
  -- the inputs' total and the payouts' total; the change is what the mined attempt leaves
  input_total bigint NOT NULL,
  payout_total bigint NOT NULL,
  change_address text NOT NULL,
  tx_hash text,
  block_number bigint,
  block_hash text,
  miner_fee bigint,
  wait_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CONSTRAINT utxo_batches_status_check CHECK (status IN ('broadcast', 'confirming', 'completed')),
  CONSTRAINT utxo_batches_amounts_check CHECK (payout_total > 0 AND input_total > payout_total),
  CONSTRAINT utxo_batches_completed_check CHECK (
    status <> 'completed' OR (tx_hash IS NOT NULL AND block_number IS NOT NULL AND miner_fee > 0))
);
--> statement-breakpoint
CREATE INDEX utxo_batches_open_idx ON utxo_batches (network_id, id) WHERE status <> 'completed';
--> statement-breakpoint
CREATE TABLE utxo_batch_txs (
  id bigserial PRIMARY KEY,
  batch_id bigint NOT NULL REFERENCES utxo_batches(id),
  tx_hash text NOT NULL,
  raw_tx text NOT NULL,
  fee bigint NOT NULL,
  fee_rate bigint NOT NULL,
  vsize integer NOT NULL,
  change_value bigint NOT NULL,
  status text NOT NULL DEFAULT 'sent',
  broadcast_errors integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT utxo_batch_txs_status_check CHECK (status IN ('sent', 'mined', 'replaced')),
  CONSTRAINT utxo_batch_txs_amounts_check CHECK (fee > 0 AND fee_rate > 0 AND vsize > 0 AND change_value >= 0),
  CONSTRAINT utxo_batch_txs_hash_check CHECK (tx_hash ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX utxo_batch_txs_hash_key ON utxo_batch_txs (tx_hash);
--> statement-breakpoint
CREATE INDEX utxo_batch_txs_batch_idx ON utxo_batch_txs (batch_id, id);
--> statement-breakpoint
ALTER TABLE withdrawals ADD COLUMN batch_id bigint REFERENCES utxo_batches(id);
--> statement-breakpoint
CREATE INDEX withdrawals_batch_idx ON withdrawals (batch_id) WHERE batch_id IS NOT NULL;
--> statement-breakpoint
-- an output's key: the deposit address's index (branch 0) or a batch's change (branch 1)
ALTER TABLE utxo_outputs ADD COLUMN key_branch smallint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE utxo_outputs ADD COLUMN key_index integer;
--> statement-breakpoint
ALTER TABLE utxo_outputs ADD COLUMN batch_id bigint REFERENCES utxo_batches(id);
--> statement-breakpoint
ALTER TABLE utxo_outputs ADD CONSTRAINT utxo_outputs_key_check CHECK (key_branch IN (0, 1) AND (key_index IS NULL OR key_index >= 0));
--> statement-breakpoint
ALTER TABLE utxo_outputs ADD CONSTRAINT utxo_outputs_reserved_check CHECK (state = 'available' OR batch_id IS NOT NULL);
--> statement-breakpoint
CREATE TABLE utxo_fees (
  id bigserial PRIMARY KEY,
  batch_id bigint NOT NULL REFERENCES utxo_batches(id),
  network_id integer NOT NULL REFERENCES networks(id),
  amount numeric(38, 18) NOT NULL,
  block_number bigint NOT NULL,
  entry_id bigint NOT NULL REFERENCES journal_entries(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT utxo_fees_amount_check CHECK (amount > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX utxo_fees_batch_key ON utxo_fees (batch_id);
--> statement-breakpoint
INSERT INTO state_transitions (machine, from_status, to_status) VALUES
  ('utxo_batch', 'broadcast', 'confirming'),
  ('utxo_batch', 'confirming', 'broadcast'),
  ('utxo_batch', 'confirming', 'completed');
--> statement-breakpoint
CREATE TRIGGER utxo_batches_state_transition BEFORE UPDATE OF status ON utxo_batches
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION coffer_state_transition_guard('utxo_batch');
--> statement-breakpoint
-- Settles a batch whose mined attempt p_tx is N deep, in one transaction: its withdrawals
-- settle (frozen -> world, fee -> fees: coffer_withdraw_settle), its inputs become spent by
-- the mined txid, the change output (if any) becomes available, and the miner fee (inputs -
-- outputs) is booked float -> world once (utxo_fees, entries of kind 'miner_fee'), as gas is
-- on an EVM chain. Returns
-- false when the batch is not confirming any more (someone settled it first).
CREATE FUNCTION coffer_utxo_batch_complete(p_batch bigint, p_tx bigint, p_block bigint, p_block_hash text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $$
DECLARE
  v_b utxo_batches%ROWTYPE;
  v_t utxo_batch_txs%ROWTYPE;
  v_net networks%ROWTYPE;
  v_paid bigint;
  v_fee numeric;
  v_entry bigint;
  v_w record;
BEGIN
  SELECT * INTO v_b FROM utxo_batches WHERE id = p_batch FOR UPDATE;
  IF NOT FOUND OR v_b.status <> 'confirming' THEN
    RETURN false;
  END IF;
  SELECT * INTO v_t FROM utxo_batch_txs WHERE id = p_tx AND batch_id = p_batch;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'attempt % is not of batch %', p_tx, p_batch USING ERRCODE = 'CB032';
  END IF;
  SELECT * INTO v_net FROM networks WHERE id = v_b.network_id;
  SELECT coalesce(sum((w.amount * power(10::numeric, v_net.token_decimals))::bigint), 0) INTO v_paid
    FROM withdrawals w WHERE w.batch_id = p_batch;
  -- the invariant of every attempt: inputs = payouts + change + miner fee
  IF v_paid <> v_b.payout_total OR v_b.input_total <> v_b.payout_total + v_t.change_value + v_t.fee THEN
    RAISE EXCEPTION 'batch % does not add up', p_batch USING ERRCODE = 'CB032';
  END IF;
  FOR v_w IN SELECT id FROM withdrawals WHERE batch_id = p_batch ORDER BY id LOOP
    PERFORM coffer_withdraw_settle(v_w.id, v_t.tx_hash, p_block);
  END LOOP;
  v_fee := v_t.fee / power(10::numeric, v_net.token_decimals);
  v_entry := ledger_open_entry('miner_fee', NULL, NULL, NULL, 'miner fee of payout batch ' || p_batch || ' ' || v_t.tx_hash);
  PERFORM ledger_post(v_entry, ARRAY[ledger_float_account(v_net.id), ledger_account(NULL, v_net.currency_id, 'world')],
    ARRAY[-v_fee, v_fee]);
  INSERT INTO utxo_fees (batch_id, network_id, amount, block_number, entry_id) VALUES (p_batch, v_net.id, v_fee, p_block, v_entry);
  UPDATE utxo_outputs SET state = 'spent', spent_by = v_t.tx_hash, updated_at = now() WHERE batch_id = p_batch AND state = 'reserved';
  IF v_t.change_value > 0 THEN
    -- the change is the transaction's last output (payout_tx.ts builds it so)
    INSERT INTO utxo_outputs (network_id, txid, vout, value, address, key_branch, key_index, block_hash, block_number)
    VALUES (v_net.id, v_t.tx_hash, (SELECT count(*) FROM withdrawals WHERE batch_id = p_batch), v_t.change_value,
            v_b.change_address, 1, p_batch, p_block_hash, p_block);
  END IF;
  UPDATE utxo_batch_txs SET status = CASE WHEN id = p_tx THEN 'mined' ELSE 'replaced' END WHERE batch_id = p_batch;
  UPDATE utxo_batches SET status = 'completed', tx_hash = v_t.tx_hash, block_number = p_block, block_hash = p_block_hash,
         miner_fee = v_t.fee, wait_reason = NULL, updated_at = now(), completed_at = now()
   WHERE id = p_batch;
  RETURN true;
END $$;

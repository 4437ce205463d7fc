-- Unconfirmed deposits (docs/decisions/056-unconfirmed-deposits.md): an output to a user's
-- deposit script seen in a UTXO node's mempool is shown as 'unconfirmed' (0/N), never
-- creditable: the credit (coffer_deposit_credit_due) takes only 'pending', the rewind, the
-- reconciliation and the gas book name the statuses they read, and entry_id stays null (the
-- credit check below). When mined, the watcher's upsert makes the same row pending (then
-- credited at N); when it leaves the mempool unmined (replaced, evicted) the row is deleted.
-- block_number is 0 and block_hash '' while unconfirmed.
ALTER TABLE deposits DROP CONSTRAINT deposits_status_check;
--> statement-breakpoint
ALTER TABLE deposits ADD CONSTRAINT deposits_status_check
  CHECK (status IN ('unconfirmed', 'pending', 'credited', 'dropped', 'below_minimum', 'reorged_after_credit'));
--> statement-breakpoint
ALTER TABLE deposits ADD CONSTRAINT deposits_unconfirmed_check CHECK (status <> 'unconfirmed' OR (block_number = 0 AND block_hash = ''));
--> statement-breakpoint
CREATE INDEX deposits_unconfirmed_idx ON deposits (network_id) WHERE status = 'unconfirmed';

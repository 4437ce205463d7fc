-- The custody state machines as data (docs/decisions/037-custody-state-machines.md): every
-- allowed move of a withdrawal and of a sweep (with its gas top-up). The rows are the same as
-- apps/server/src/chain/state-machines.ts (a test compares them). A trigger on each table
-- refuses any status change not listed here, whoever makes it: the sender, a SQL function
-- (coffer_withdraw_refund, coffer_withdraw_settle), an operator, a hand-typed UPDATE.
CREATE TABLE state_transitions (
  machine text NOT NULL,
  from_status text NOT NULL,
  to_status text NOT NULL,
  PRIMARY KEY (machine, from_status, to_status)
);
--> statement-breakpoint
INSERT INTO state_transitions (machine, from_status, to_status) VALUES
  ('withdrawal', 'review', 'queued'),
  ('withdrawal', 'review', 'rejected'),
  ('withdrawal', 'review', 'cancelled'),
  ('withdrawal', 'queued', 'broadcast'),
  ('withdrawal', 'queued', 'cancelled'),
  ('withdrawal', 'queued', 'failed'),
  ('withdrawal', 'broadcast', 'confirming'),
  ('withdrawal', 'broadcast', 'failed'),
  ('withdrawal', 'confirming', 'broadcast'),
  ('withdrawal', 'confirming', 'completed'),
  ('withdrawal', 'confirming', 'failed'),
  ('sweep', 'gas_required', 'waiting_for_gas'),
  ('sweep', 'gas_required', 'ready'),
  ('sweep', 'gas_required', 'done'),
  ('sweep', 'gas_required', 'failed'),
  ('sweep', 'waiting_for_gas', 'ready'),
  ('sweep', 'waiting_for_gas', 'gas_required'),
  ('sweep', 'waiting_for_gas', 'failed'),
  ('sweep', 'ready', 'sent'),
  ('sweep', 'ready', 'gas_required'),
  ('sweep', 'ready', 'done'),
  ('sweep', 'ready', 'failed'),
  ('sweep', 'sent', 'done'),
  ('sweep', 'sent', 'ready'),
  ('sweep', 'sent', 'gas_required'),
  ('sweep', 'sent', 'failed');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_state_transition_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- TG_ARGV[0]: the machine the table holds
  IF NOT EXISTS (SELECT 1 FROM state_transitions
                 WHERE machine = TG_ARGV[0] AND from_status = OLD.status AND to_status = NEW.status) THEN
    RAISE EXCEPTION '% %: % -> % is not an allowed move', TG_ARGV[0], OLD.id, OLD.status, NEW.status USING ERRCODE = 'CB007';
  END IF;
  RETURN NEW;
END $function$;
--> statement-breakpoint
CREATE TRIGGER withdrawals_state_transition BEFORE UPDATE OF status ON withdrawals
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION coffer_state_transition_guard('withdrawal');
--> statement-breakpoint
CREATE TRIGGER sweeps_state_transition BEFORE UPDATE OF status ON sweeps
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION coffer_state_transition_guard('sweep');
--> statement-breakpoint
-- Every attempt of a retried step counts against a named limit (docs/decisions/037): a gas
-- top-up round that is lost or reverts, a refused broadcast. The sweep's existing `attempts`
-- counts reverted sweeps; these count the rest.
ALTER TABLE sweeps ADD COLUMN topup_rounds integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE chain_txs ADD COLUMN broadcast_errors integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE chain_txs ADD COLUMN next_broadcast_at timestamptz;
--> statement-breakpoint
-- The chain loop's health as the leader last saw it (written on each change of state only):
-- the metrics (coffer_chain_rpc_healthy) and the console dashboard read it from any process.
CREATE TABLE chain_rpc_health (
  chain_id integer PRIMARY KEY,
  healthy boolean NOT NULL,
  last_error text,
  since timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- An operator's replacement of a stuck payout's nonce by a zero-value transfer to the hot
-- wallet itself: an attempt of the withdrawal that pays nothing. Mined and final, it refunds
-- the withdrawal (never before: the original could still be mined).
ALTER TABLE chain_txs ADD COLUMN cancel boolean NOT NULL DEFAULT false;

-- Every money function (one that posts to the ledger, or calls one that does) says why it is
-- as it is in the database itself (COMMENT ON FUNCTION), so the sql/ view a reviewer reads
-- carries it (src/db/sql-definitions.ts writes each comment after its function; the API suite
-- checks that no money function is without one).
COMMENT ON FUNCTION ledger_post IS 'The one writer of postings: two or more postings of one journal entry, each moving its account''s balance (refused below the account''s floor: CB001 for a user, CB011 for a system account such as the house) and recording balance_after; together they must sum to zero per currency (CB900). Every balance change in Coffer goes through here.';
--> statement-breakpoint
COMMENT ON FUNCTION ledger_open_entry IS 'Opens the journal entry a money function posts under: its kind (which business table holds its one row, checked by the ledger audit), the user, and the idempotency key and request hash that make a replay answer the first result.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_transfer_apply IS 'One user-to-user transfer (available -> available) with its transfers row; the single-item path beside coffer_transfer_batch, which the HTTP API uses. A refusal is raised with its code for the caller to keep under the idempotency key.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_transfer_batch IS 'Many transfers in one statement (group commit, decisions 028 and 030): set-based checks and postings, each item answered on its own (done, refused with its code, or BUSY when told not to wait for an account another batch holds), so one hot account does not stall the batch.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_swap_apply IS 'One swap against the house at a quoted rate: user (from) -> house (from), house (to) -> user (to), the fee a separate posting to the fees account; amounts at each currency''s display precision, rounded toward the house (decision 053); the house account''s floor is its limit (HOUSE_LIMITS).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_swap_batch IS 'Many swaps in one statement (group commit): the same postings and rules as coffer_swap_apply, set-based, each item answered on its own (done, or refused with its code).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_adjust IS 'An operator''s correction of a user''s available balance against the adjustments account, with its adjustments row (who, why); a request above ADJUST_APPROVAL_ABOVE reaches it only once a second operator approved (decision 043).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_withdraw_request IS 'Runs coffer_withdraw_apply; a refusal the ledger keeps (insufficient balance, the daily limit, a quote refused ...) is stored under the idempotency key, so a replay answers the same refusal instead of trying again.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_withdraw_apply IS 'Spends the fee quote (this user''s, this network''s, unused, not expired: decision 040), checks the day''s total against the network''s limit, holds amount + fee (available -> frozen) and creates the row in review (at or above the network''s threshold) or queued; the hold entry''s id is the withdrawal''s reference everywhere (decision 059).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_withdraw_settle IS 'A withdrawal paid on chain and final: frozen -> world for the amount, frozen -> fees for the fee, once (the row must be broadcast or confirming).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_withdraw_refund IS 'A withdrawal that will not be paid (rejected, cancelled, failed): frozen -> available for amount + fee, once, from the statuses the caller names.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_deposit_credit_due IS 'Credits every pending deposit of the chain that has its network''s confirmations at the given height: world -> the owner''s available, once per deposit (the row moves to credited in the same statement).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_deposit_record_chunk IS 'Records one scanned chunk of a chain (deposits upserted, reorg orphans taken over, events, block hashes, the cursor) and credits what is due at its last block, in one call and one transaction (decision 052): the cursor never moves without the deposits below it.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_deposit_unclaimed_book IS 'A final deposit below the network''s minimum: world -> the network''s float, once, so custody and the ledger stay equal to the base unit (decision 038).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_float_fund IS 'The operator''s own coins sent to the hot wallet: world -> the network''s float, once per chain transaction (chain_fundings).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_gas_book IS 'The gas of a mined, final chain transaction Coffer signed: the network''s float -> world, once per transaction (chain_gas), so the ledger follows the hot wallet to the wei (decision 038).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_utxo_batch_complete IS 'A UTXO payout batch whose mined attempt is N deep: checks inputs = payouts + change + miner fee, settles each withdrawal, marks the inputs spent, records the change output and books the miner fee float -> world, in one transaction (decision 051).';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_activity_fund IS 'Funds an activity''s prize pool (adjustments -> the currency''s prize account), once per idempotency key, recorded as an operator action.';
--> statement-breakpoint
COMMENT ON FUNCTION coffer_activity_pay_next IS 'Pays the next unpaid winner of a settled activity from its prize pool (prizes -> the winner''s available), one at a time so that several server processes may run the payouts at once without paying twice.';

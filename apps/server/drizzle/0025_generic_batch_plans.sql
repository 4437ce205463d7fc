-- The batch functions' statements take arrays (PL/pgSQL variables) as parameters, so the plan
-- cache planned each of them again on every call (a custom plan kept looking cheaper than the
-- generic one). Planning a dozen statements was most of a batch's fixed cost: measured with
-- apps/server/scripts/bench-transfer-batch.ts (2026-11-23), database CPU per transfer 175 -> 138
-- µs in batches of 8, 273 -> 194 in batches of 4, 144 -> 108 in batches of 16 (decision 030).
-- Every access in them is by key, with sequential scans and hash and merge joins off
-- (0022, 0023), so the generic plan is the index plan whatever the table sizes.
ALTER FUNCTION coffer_transfer_batch(text[], bigint[], text[], integer[], numeric[], text[], text[], text[], boolean[])
  SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION coffer_swap_batch(text[], text[], text[], bigint[], integer[], integer[], numeric[], numeric[], numeric[], integer[], numeric[], numeric[], integer[], integer[], text[])
  SET plan_cache_mode = force_generic_plan;

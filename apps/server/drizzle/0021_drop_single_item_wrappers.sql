-- The single-item wrappers coffer_swap() (0007, restated in 0009) and coffer_transfer() (0005,
-- restated in 0008) have no caller: the API applies every swap and transfer through
-- coffer_swap_batch() / coffer_transfer_batch() (group commit), which call the *_apply()
-- functions directly. Tests that need a transfer straight in SQL call coffer_transfer_apply().
-- The current definition of every remaining function is in apps/server/sql/functions/.
DROP FUNCTION coffer_swap(bigint, text, text, bigint, integer, integer, numeric, numeric, numeric, integer, numeric, numeric, integer, integer);
--> statement-breakpoint
DROP FUNCTION coffer_transfer(bigint, bigint, text, integer, numeric, text, text, text);

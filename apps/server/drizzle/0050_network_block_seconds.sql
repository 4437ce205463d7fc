-- A network's typical seconds per block, so the app can tell how long a deposit or withdrawal
-- takes to confirm (confirmations x block time; docs/decisions/050-several-networks.md). An
-- estimate the operator keeps, not a rule: Ethereum's 12 s by default, the embedded chains'
-- own (LOCAL_CHAIN_BLOCK_TIME's default 2 s, the local L2's 1 s).
ALTER TABLE "networks" ADD COLUMN "block_seconds" integer DEFAULT 12 NOT NULL;
--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_block_seconds_check" CHECK ("block_seconds" BETWEEN 1 AND 3600);
--> statement-breakpoint
UPDATE networks SET block_seconds = 2 WHERE chain_id = 31337;
--> statement-breakpoint
UPDATE networks SET block_seconds = 1 WHERE chain_id = 31338;

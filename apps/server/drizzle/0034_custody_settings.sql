-- Custody settings per network, and why a queued withdrawal is waiting. Every column here is
-- operator data (changed through the audited network update, never by start-up defaults).
--   gas_price_cap_wei   the highest gas price (wei) Coffer signs on this network: above it new
--                       payouts wait and replacements stop at it. Null only on a local chain.
--   max_fee_bumps       replacements at a higher price per payout before it waits for an
--                       operator (a bounded number, not one per minute for ever).
--   fee_margin_percent  the margin on the chain's fee estimate in a user's withdrawal quote.
--   hot_ceiling         above this hot-wallet balance (currency unit) the excess goes to
--   hot_floor           cold_address; below the floor operators are alerted with the amount
--   cold_address        to send. The cold address is watch-only: no key on the server.
ALTER TABLE "networks" ADD COLUMN "gas_price_cap_wei" numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "max_fee_bumps" integer DEFAULT 5 NOT NULL;
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "fee_margin_percent" integer DEFAULT 20 NOT NULL;
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "hot_ceiling" numeric(38, 18);
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "hot_floor" numeric(38, 18);
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "cold_address" text;
--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_custody_check" CHECK (
  ("gas_price_cap_wei" IS NULL OR "gas_price_cap_wei" > 0)
  AND "max_fee_bumps" BETWEEN 0 AND 50
  AND "fee_margin_percent" BETWEEN 0 AND 500
  AND ("hot_ceiling" IS NULL OR "hot_ceiling" > 0)
  AND ("hot_floor" IS NULL OR "hot_floor" >= 0)
  AND ("hot_floor" IS NULL OR "hot_ceiling" IS NULL OR "hot_floor" < "hot_ceiling")
  AND ("cold_address" IS NULL OR "cold_address" ~ '^0x[0-9a-fA-F]{40}$')
);
--> statement-breakpoint
-- The local chain's networks get a cap too, so the capped path is the one every test walks.
UPDATE "networks" SET "gas_price_cap_wei" = 200000000000 WHERE "chain_id" IN (31337, 1337);
--> statement-breakpoint
-- A queued withdrawal the sender could not sign yet says why (shown to the user, and to
-- operators with its age): network fees above the cap, the hot wallet short, the node down.
ALTER TABLE "withdrawals" ADD COLUMN "wait_reason" text;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "wait_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_wait_check" CHECK (
  ("wait_reason" IS NULL) = ("wait_since" IS NULL)
  AND ("wait_reason" IS NULL OR "wait_reason" IN ('fees_high', 'hot_wallet_short', 'node_unavailable', 'fee_bumps_exhausted'))
);

-- Withdrawal holds after a credential change, and the swap step-up opt-in.
--
-- A hold is opened when a credential changes (password reset or change, two-factor turned off,
-- a passkey added or removed, a sign-in from a new device): until ends_at, withdrawals wait and
-- the user's transfers since the hold began may not add up past the currency's hold_free_transfer. The owner may end it early
-- with the second factor (cancelled_at). Rows are never deleted: they are the account's
-- security history.
CREATE TABLE "security_holds" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "reason" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "ends_at" timestamp with time zone NOT NULL,
  "cancelled_at" timestamp with time zone,
  CONSTRAINT "security_holds_reason_check" CHECK ("reason" IN
    ('password_reset', 'password_changed', 'two_factor_disabled', 'passkey_added', 'passkey_removed', 'new_device')),
  CONSTRAINT "security_holds_period_check" CHECK ("ends_at" >= "created_at"),
  CONSTRAINT "security_holds_cancel_check" CHECK ("cancelled_at" IS NULL OR "cancelled_at" >= "created_at")
);
--> statement-breakpoint
CREATE INDEX "security_holds_user_idx" ON "security_holds" ("user_id", "ends_at");
--> statement-breakpoint
-- What a user under a hold may still send in all since it began (0: nothing).
ALTER TABLE "currencies" ADD COLUMN "hold_free_transfer" numeric(38, 18) DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "currencies" ADD CONSTRAINT "currencies_hold_free_transfer_check" CHECK ("hold_free_transfer" >= 0);
--> statement-breakpoint
UPDATE "currencies" SET "hold_free_transfer" = CASE "code"
  WHEN 'USDT' THEN 100 WHEN 'USDC' THEN 100 WHEN 'ETH' THEN 0.05 WHEN 'BTC' THEN 0.002 ELSE 0 END;
--> statement-breakpoint
-- The user's choice: swaps ask for the second factor too (transfers and withdrawals always do
-- when two-factor is on; decision 033).
ALTER TABLE "users" ADD COLUMN "step_up_swaps" boolean DEFAULT false NOT NULL;

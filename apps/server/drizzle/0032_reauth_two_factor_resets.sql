-- Recent re-authentication per session, and the operator-assisted two-factor reset
-- (docs/decisions/035-reauth-and-two-factor-recovery.md).
--
-- sessions.reauthenticated_at: when this session last proved the password (or the second
-- factor). Adding a passkey and turning two-factor on need it within REAUTH_SECONDS.
ALTER TABLE "sessions" ADD COLUMN "reauthenticated_at" timestamp with time zone;
--> statement-breakpoint
-- An operator opens a reset for an owner who lost the authenticator; the owner is mailed and
-- may cancel it until completes_at; then the authenticator and recovery codes are removed
-- (completed_at). Rows are never deleted: they are the account's security history.
CREATE TABLE "two_factor_resets" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "operator_user_id" bigint REFERENCES "users"("id"),
  "operator" text NOT NULL,
  "reason" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "completes_at" timestamp with time zone NOT NULL,
  "cancelled_at" timestamp with time zone,
  "cancelled_by" text,
  "completed_at" timestamp with time zone,
  CONSTRAINT "two_factor_resets_period_check" CHECK ("completes_at" >= "created_at"),
  CONSTRAINT "two_factor_resets_one_end_check" CHECK ("cancelled_at" IS NULL OR "completed_at" IS NULL),
  CONSTRAINT "two_factor_resets_cancelled_by_check" CHECK (("cancelled_at" IS NULL) = ("cancelled_by" IS NULL))
);
--> statement-breakpoint
-- At most one open reset per user.
CREATE UNIQUE INDEX "two_factor_resets_open_key" ON "two_factor_resets" ("user_id")
  WHERE "cancelled_at" IS NULL AND "completed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "two_factor_resets_due_idx" ON "two_factor_resets" ("completes_at")
  WHERE "cancelled_at" IS NULL AND "completed_at" IS NULL;

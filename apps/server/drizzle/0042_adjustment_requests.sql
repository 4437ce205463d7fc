-- Four eyes on money: a console adjustment above the currency's threshold (ADJUST_APPROVAL_ABOVE)
-- is a request until a second, different operator approves it (then coffer_adjust posts it and
-- adjustment_id names the posted adjustment) or rejects it. Who asked, who decided and why stay on the
-- row; both steps are in the operator audit trail too.
CREATE TABLE "adjustment_requests" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "currency_id" integer NOT NULL REFERENCES "currencies"("id"),
  "amount" numeric(38, 18) NOT NULL,
  "reason" text NOT NULL,
  "requested_by" bigint NOT NULL REFERENCES "users"("id"),
  "requested_by_email" text NOT NULL,
  "idempotency_key" text,
  "requested_at" timestamp with time zone DEFAULT now() NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "decided_by" bigint REFERENCES "users"("id"),
  "decided_by_email" text,
  "decided_at" timestamp with time zone,
  "decision_reason" text,
  "adjustment_id" bigint REFERENCES "adjustments"("id"),
  CONSTRAINT "adjustment_requests_amount_check" CHECK ("amount" <> 0),
  CONSTRAINT "adjustment_requests_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected')),
  CONSTRAINT "adjustment_requests_decision_check" CHECK (
    ("status" = 'pending') = ("decided_by" IS NULL) AND ("status" = 'pending') = ("decided_at" IS NULL)
    AND ("status" = 'pending') = ("decision_reason" IS NULL)),
  -- the rule itself, whatever the code above it does
  CONSTRAINT "adjustment_requests_four_eyes_check" CHECK ("decided_by" IS NULL OR "decided_by" <> "requested_by"),
  CONSTRAINT "adjustment_requests_adjustment_check" CHECK (("status" = 'approved') = ("adjustment_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "adjustment_requests_key" ON "adjustment_requests" ("requested_by", "idempotency_key")
  WHERE "idempotency_key" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "adjustment_requests_pending_idx" ON "adjustment_requests" ("id") WHERE "status" = 'pending';

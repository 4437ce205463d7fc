-- Alerts that reach operators (docs/decisions/046-operator-alerts.md): one row per condition
-- while it lasts (an open chain incident, reconciliation drift, a hot wallet below its floor, a
-- payout waiting beyond ALERT_PAYOUT_WAIT_MINUTES, a withdrawal in review beyond
-- ALERT_REVIEW_MINUTES). "key" names the condition (kind:subject_type:subject_id); the unique
-- partial index lets one open row exist per key, so two alert workers cannot both open (and mail)
-- it. The condition clearing resolves the row; a recurrence opens a new one. Acknowledging takes
-- it off the console's badge but it stays open until the condition clears.
CREATE TABLE "operator_alerts" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "key" text NOT NULL,
  "kind" text NOT NULL,
  "subject_type" text NOT NULL,
  "subject_id" bigint NOT NULL,
  "network_id" integer REFERENCES "networks"("id"),
  -- facts for the mail and the console (amounts as decimal strings), nothing secret
  "facts" jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- when the condition began (incident opened, wait began, withdrawal entered review)
  "since" timestamp with time zone NOT NULL,
  "opened_at" timestamp with time zone NOT NULL,
  "resolved_at" timestamp with time zone,
  -- when the first operator's mail went out
  "mailed_at" timestamp with time zone,
  "acknowledged_at" timestamp with time zone,
  "acknowledged_by" bigint REFERENCES "users"("id"),
  "acknowledge_reason" text,
  CONSTRAINT "operator_alerts_kind_check" CHECK ("kind" IN ('incident_open', 'reconcile_drift', 'hot_below_floor', 'payout_waiting', 'review_too_long')),
  CONSTRAINT "operator_alerts_subject_check" CHECK ("subject_type" IN ('incident', 'network', 'withdrawal')),
  CONSTRAINT "operator_alerts_key_check" CHECK ("key" = "kind" || ':' || "subject_type" || ':' || "subject_id"),
  CONSTRAINT "operator_alerts_ack_check" CHECK (
    ("acknowledged_at" IS NULL) = ("acknowledged_by" IS NULL) AND ("acknowledged_at" IS NULL) = ("acknowledge_reason" IS NULL)),
  CONSTRAINT "operator_alerts_reason_check" CHECK (length("acknowledge_reason") <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_alerts_open_key" ON "operator_alerts" ("key") WHERE "resolved_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "operator_alerts_resolved_idx" ON "operator_alerts" ("resolved_at" DESC) WHERE "resolved_at" IS NOT NULL;
--> statement-breakpoint
-- One row per alert and operator mailed: the row is the claim (two workers cannot both mail the
-- same operator), "attempts" bounds the retries (ALERT_MAIL_ATTEMPTS), "sent_at" the success.
CREATE TABLE "operator_alert_mails" (
  "alert_id" bigint NOT NULL REFERENCES "operator_alerts"("id"),
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "attempts" integer NOT NULL DEFAULT 1,
  "claimed_at" timestamp with time zone,
  "sent_at" timestamp with time zone,
  PRIMARY KEY ("alert_id", "user_id"),
  CONSTRAINT "operator_alert_mails_attempts_check" CHECK ("attempts" > 0)
);

-- Notices and mails for money and security events (docs/decisions/054-event-notifications.md).
-- Mail toggles per category (a user changes them in Settings). Security mails are on by
-- default; money mails off (every received transfer would mail): the notice comes either way.
ALTER TABLE users ADD COLUMN mail_money_events boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN mail_security_events boolean NOT NULL DEFAULT true;
--> statement-breakpoint
-- A browser's Web Push subscription: the push service URL and the keys the payload is
-- encrypted to. One row per endpoint; subscribing again from the same browser moves it.
CREATE TABLE push_subscriptions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  endpoint text NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 1 AND 1000),
  p256dh text NOT NULL CHECK (length(p256dh) BETWEEN 1 AND 200),
  auth text NOT NULL CHECK (length(auth) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);
--> statement-breakpoint
-- How far the notifier has turned committed user_events into notices: it scans after this id
-- (less a look-back for transactions that committed out of id order), one row.
CREATE TABLE notify_progress (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_event_id bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
-- Starts at the newest event: an upgrade does not notify what happened before it.
INSERT INTO notify_progress (id, last_event_id) SELECT true, coalesce(max(id), 0) FROM user_events;

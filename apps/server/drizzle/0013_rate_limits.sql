-- Rate limits shared by every API process on the database and kept across restarts
-- (apps/server/src/core/rate-limits.ts). One row per key and window length: count is the
-- number of hits since the window opened; the window closes at reset_at, and the next hit
-- after that opens a new one. Rows whose window is over are deleted by a periodic sweep.
CREATE TABLE rate_limits (
  key text NOT NULL,
  window_ms integer NOT NULL CHECK (window_ms > 0),
  count integer NOT NULL CHECK (count >= 0),
  reset_at timestamptz NOT NULL,
  PRIMARY KEY (key, window_ms)
);
--> statement-breakpoint
CREATE INDEX rate_limits_reset_at_idx ON rate_limits (reset_at);
--> statement-breakpoint

-- The language the code was mailed in: the alert after too many wrong codes goes out in it
-- when the address has no account (register codes).
ALTER TABLE email_codes ADD COLUMN locale text;

-- Security centre (modules/security): when a session was last used (written at most once a
-- minute per session by core/session.ts), every sign-in attempt to an account, and the
-- optional anti-phishing phrase shown in every mail to the user.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN anti_phishing_phrase text;
--> statement-breakpoint
CREATE TABLE sign_in_attempts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  success boolean NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX sign_in_attempts_user_idx ON sign_in_attempts (user_id, id DESC);

-- Two-factor sign-in (modules/two-factor): authenticator (TOTP) secrets, their recovery codes,
-- passkeys (WebAuthn credentials) and the short-lived challenges of a sign-in in two steps.

-- One authenticator per user. enabled_at is null while enrolment waits for its first code.
-- last_step is the highest 30 s time step whose code was accepted: a code of that step or an
-- earlier one is refused, so a code seen by someone else cannot be used a second time.
CREATE TABLE user_totp (
  user_id bigint PRIMARY KEY REFERENCES users(id),
  secret text NOT NULL,
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint

-- Ten one-time recovery codes per enrolment, stored as SHA-256 (they are random, 50 bits).
CREATE TABLE recovery_codes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  code_hash text NOT NULL,
  used_at timestamptz
);
--> statement-breakpoint
CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);
--> statement-breakpoint

-- Passkeys: public key and signature counter of each WebAuthn credential.
CREATE TABLE passkeys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX passkeys_credential_id_key ON passkeys (credential_id);
--> statement-breakpoint
CREATE INDEX passkeys_user_idx ON passkeys (user_id);
--> statement-breakpoint

-- Challenges: a password sign-in waiting for its second factor (purpose 'second_factor'), a
-- passkey registration or sign-in waiting for the authenticator's answer. Only a hash of the
-- token handed out is kept; a challenge is used once and dies after a few minutes.
CREATE TABLE auth_challenges (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('second_factor', 'passkey_register', 'passkey_login')),
  user_id bigint REFERENCES users(id),
  webauthn_challenge text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX auth_challenges_token_hash_key ON auth_challenges (token_hash);
--> statement-breakpoint
CREATE INDEX auth_challenges_expires_at_idx ON auth_challenges (expires_at);

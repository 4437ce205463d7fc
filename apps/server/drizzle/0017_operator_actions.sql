-- The operator audit trail: every action taken through /api/admin/... (or an operator
-- command) leaves one row here, written in the same transaction as the change it records,
-- with who, what, on which record, why, and the record before and after. Rows are never
-- updated or deleted (the trigger below refuses it), so the trail cannot be rewritten from
-- the API process.
CREATE TABLE operator_actions (
  id bigserial PRIMARY KEY,
  actor_user_id bigint REFERENCES users (id),
  -- The operator's e-mail at the time, or "cli:<os user>" for a command-line action.
  actor text NOT NULL CHECK (length(actor) BETWEEN 1 AND 320),
  -- Dotted name of the action, e.g. "banner.create", "swap.pair.update", "user.disable".
  action text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$'),
  target_type text NOT NULL CHECK (length(target_type) BETWEEN 1 AND 64),
  target_id text CHECK (length(target_id) <= 128),
  reason text CHECK (length(reason) <= 500),
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX operator_actions_created_idx ON operator_actions (id DESC);
--> statement-breakpoint
CREATE INDEX operator_actions_target_idx ON operator_actions (target_type, target_id, id DESC);
--> statement-breakpoint
CREATE FUNCTION coffer_operator_actions_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_actions is append-only' USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER operator_actions_append_only BEFORE UPDATE OR DELETE ON operator_actions
  FOR EACH ROW EXECUTE FUNCTION coffer_operator_actions_append_only();
--> statement-breakpoint
-- One call records one action; SQL functions that change ledger parameters call it inside
-- their own transaction, and TypeScript callers run it in the same transaction as their write.
CREATE FUNCTION coffer_operator_action(
  p_actor_user_id bigint,
  p_actor text,
  p_action text,
  p_target_type text,
  p_target_id text,
  p_reason text,
  p_before jsonb,
  p_after jsonb
) RETURNS bigint
LANGUAGE sql AS $$
  INSERT INTO operator_actions (actor_user_id, actor, action, target_type, target_id, reason, before, after)
  VALUES (p_actor_user_id, p_actor, p_action, p_target_type, p_target_id, nullif(btrim(p_reason), ''), p_before, p_after)
  RETURNING id;
$$;
--> statement-breakpoint
-- A disabled account cannot sign in (2010) and its sessions stop working (core/session.ts),
-- ranks in no activity and wins no prize (0019). Set and cleared by modules/console-admin.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN disabled_reason text CHECK (length(disabled_reason) <= 500);
--> statement-breakpoint
CREATE INDEX users_disabled_idx ON users (id) WHERE disabled_at IS NOT NULL;

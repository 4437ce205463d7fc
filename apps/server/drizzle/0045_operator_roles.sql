-- Operators held to a higher bar (decision 045). A session records when it last passed a second
-- factor (sign-in with an authenticator code or a passkey, or a step-up with a code); the operator
-- guard lets a session through only when a factor enrolled before that moment still exists.
ALTER TABLE "sessions" ADD COLUMN "second_factor_at" timestamp with time zone;
--> statement-breakpoint
-- Least privilege: an operator holds one or more roles; every admin route names the one it needs
-- (apps/server/src/modules/operators/permissions.ts). Changes are audited in operator_actions.
CREATE TABLE "operator_roles" (
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "role" text NOT NULL,
  "granted_at" timestamp with time zone DEFAULT now() NOT NULL,
  "granted_by" text NOT NULL,
  CONSTRAINT "operator_roles_pkey" PRIMARY KEY ("user_id", "role"),
  CONSTRAINT "operator_roles_role_check" CHECK ("role" IN ('support', 'finance', 'admin'))
);
--> statement-breakpoint
-- Operators of before keep what they could do: every role (an admin narrows them in the console).
INSERT INTO "operator_roles" ("user_id", "role", "granted_by")
SELECT u."id", r."role", 'migration 0045'
  FROM "users" u CROSS JOIN (VALUES ('support'), ('finance'), ('admin')) AS r("role")
 WHERE u."role" = 'operator';

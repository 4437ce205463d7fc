-- What kind of sign-in attempt a row records: a wrong second factor after a right password
-- tells the owner that someone knows the password, which a plain success flag could not say.
ALTER TABLE "sign_in_attempts" ADD COLUMN "kind" text;
--> statement-breakpoint
UPDATE "sign_in_attempts" SET "kind" = CASE WHEN "success" THEN 'success' ELSE 'password_wrong' END;
--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ALTER COLUMN "kind" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD CONSTRAINT "sign_in_attempts_kind_check"
  CHECK ("kind" IN ('success', 'password_wrong', 'second_factor_wrong') AND "success" = ("kind" = 'success'));

DROP INDEX "email_codes_lookup_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "email_codes_email_purpose_key" ON "email_codes" USING btree ("email","purpose");
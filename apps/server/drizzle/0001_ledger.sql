CREATE TABLE "accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"currency_id" integer NOT NULL,
	"user_id" bigint,
	"kind" text NOT NULL,
	"balance" numeric(38, 18) DEFAULT '0' NOT NULL,
	"min_balance" numeric(38, 18),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_kind_check" CHECK (("accounts"."user_id" is not null and "accounts"."kind" in ('available', 'frozen')) or ("accounts"."user_id" is null and "accounts"."kind" in ('world', 'house', 'fees', 'adjustments'))),
	CONSTRAINT "accounts_user_floor_check" CHECK ("accounts"."user_id" is null or ("accounts"."min_balance" = 0 and "accounts"."balance" >= 0)),
	CONSTRAINT "accounts_floor_check" CHECK ("accounts"."min_balance" is null or "accounts"."balance" >= "accounts"."min_balance")
);
--> statement-breakpoint
CREATE TABLE "currencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"decimals" integer NOT NULL,
	"icon" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"transfer_min" numeric(38, 18),
	"transfer_max" numeric(38, 18),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "currencies_decimals_check" CHECK ("currencies"."decimals" between 0 and 18)
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" bigint,
	"idempotency_key" text,
	"request_hash" text,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"currency_id" integer NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"balance_after" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "postings_nonzero_check" CHECK ("postings"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_user_key" ON "accounts" USING btree ("user_id","currency_id","kind") WHERE "accounts"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_system_key" ON "accounts" USING btree ("currency_id","kind") WHERE "accounts"."user_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_code_key" ON "currencies" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_idempotency_key" ON "journal_entries" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "postings_account_idx" ON "postings" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "postings_entry_idx" ON "postings" USING btree ("entry_id");
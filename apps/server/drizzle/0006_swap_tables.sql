CREATE TABLE "swap_pairs" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_currency_id" integer NOT NULL,
	"to_currency_id" integer NOT NULL,
	"mid_rate" numeric(38, 18) NOT NULL,
	"spread_bps" integer DEFAULT 0 NOT NULL,
	"fee_bps" integer DEFAULT 0 NOT NULL,
	"fee_currency" text DEFAULT 'to' NOT NULL,
	"min_amount" numeric(38, 18),
	"max_amount" numeric(38, 18),
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swap_pairs_distinct_check" CHECK ("swap_pairs"."from_currency_id" <> "swap_pairs"."to_currency_id"),
	CONSTRAINT "swap_pairs_rate_check" CHECK ("swap_pairs"."mid_rate" > 0),
	CONSTRAINT "swap_pairs_bps_check" CHECK ("swap_pairs"."spread_bps" between 0 and 5000 and "swap_pairs"."fee_bps" between 0 and 5000),
	CONSTRAINT "swap_pairs_fee_currency_check" CHECK ("swap_pairs"."fee_currency" in ('from', 'to'))
);
--> statement-breakpoint
CREATE TABLE "swap_quotes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"from_currency_id" integer NOT NULL,
	"to_currency_id" integer NOT NULL,
	"from_amount" numeric(38, 18) NOT NULL,
	"to_amount" numeric(38, 18) NOT NULL,
	"rate" numeric(38, 18) NOT NULL,
	"mid_rate" numeric(38, 18) NOT NULL,
	"spread_bps" integer NOT NULL,
	"fee_bps" integer NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"fee_currency_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "swaps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"quote_id" bigint,
	"from_currency_id" integer NOT NULL,
	"to_currency_id" integer NOT NULL,
	"from_amount" numeric(38, 18) NOT NULL,
	"to_amount" numeric(38, 18) NOT NULL,
	"rate" numeric(38, 18) NOT NULL,
	"mid_rate" numeric(38, 18) NOT NULL,
	"spread_bps" integer NOT NULL,
	"fee_bps" integer NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"fee_currency_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "swap_pairs" ADD CONSTRAINT "swap_pairs_from_currency_id_currencies_id_fk" FOREIGN KEY ("from_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_pairs" ADD CONSTRAINT "swap_pairs_to_currency_id_currencies_id_fk" FOREIGN KEY ("to_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_quotes" ADD CONSTRAINT "swap_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_quotes" ADD CONSTRAINT "swap_quotes_from_currency_id_currencies_id_fk" FOREIGN KEY ("from_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_quotes" ADD CONSTRAINT "swap_quotes_to_currency_id_currencies_id_fk" FOREIGN KEY ("to_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_quotes" ADD CONSTRAINT "swap_quotes_fee_currency_id_currencies_id_fk" FOREIGN KEY ("fee_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_quote_id_swap_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."swap_quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_from_currency_id_currencies_id_fk" FOREIGN KEY ("from_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_to_currency_id_currencies_id_fk" FOREIGN KEY ("to_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_fee_currency_id_currencies_id_fk" FOREIGN KEY ("fee_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "swap_pairs_direction_key" ON "swap_pairs" USING btree ("from_currency_id","to_currency_id");--> statement-breakpoint
CREATE INDEX "swap_quotes_user_idx" ON "swap_quotes" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "swaps_entry_key" ON "swaps" USING btree ("entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "swaps_quote_key" ON "swaps" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "swaps_user_idx" ON "swaps" USING btree ("user_id","id");
-- The withdrawal address book (docs/security.md, "Address book"): saved destinations per user
-- and network with a label. A new entry may be paid from usable_at on: created_at plus the
-- configured delay, or at once when it was added with the second factor. Removing an entry
-- deletes it (the owner is mailed about every add and remove).
CREATE TABLE "address_book" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "user_id" bigint NOT NULL REFERENCES "users"("id"),
  "network_id" integer NOT NULL REFERENCES "networks"("id"),
  "address" text NOT NULL,
  "label" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "usable_at" timestamp with time zone NOT NULL,
  CONSTRAINT "address_book_address_check" CHECK ("address" ~ '^0x[0-9a-fA-F]{40}$'),
  CONSTRAINT "address_book_label_check" CHECK (char_length("label") BETWEEN 1 AND 40),
  CONSTRAINT "address_book_usable_check" CHECK ("usable_at" >= "created_at")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_entry_key" ON "address_book" ("user_id", "network_id", lower("address"));
--> statement-breakpoint
-- "Whitelist only": withdrawals go only to usable address-book entries.
ALTER TABLE "users" ADD COLUMN "withdraw_whitelist_only" boolean DEFAULT false NOT NULL;

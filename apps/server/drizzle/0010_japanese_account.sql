CREATE TABLE "bank_statements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_statements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"filename" text NOT NULL,
	"sha256" text NOT NULL,
	"format" text NOT NULL,
	"lines" integer NOT NULL,
	"imported_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_transfers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"statement_id" integer NOT NULL,
	"bank_ref" text NOT NULL,
	"transfer_date" text NOT NULL,
	"amount" bigint NOT NULL,
	"payer_name" text NOT NULL,
	"virtual_account" text NOT NULL,
	"user_id" integer,
	"status" text DEFAULT 'unmatched' NOT NULL,
	"deposit_id" integer,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brokerage_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"identity_id" integer,
	"specific_account" text NOT NULL,
	"nisa_opened_at" timestamp with time zone,
	"default_tax_account" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realizations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "realizations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"tax_account" text NOT NULL,
	"margin_type" text NOT NULL,
	"code" text NOT NULL,
	"quantity" integer NOT NULL,
	"proceeds" bigint NOT NULL,
	"cost" bigint NOT NULL,
	"gain" bigint NOT NULL,
	"year" integer NOT NULL,
	"realized_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "bank_code" text;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "account_type" text DEFAULT 'ordinary' NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "transfer_id" integer;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "first_approved_by" integer;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "first_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "full_name_kana" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "birth_date" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "profile" jsonb;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "document_type" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "my_number_cipher" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "my_number_last4" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "specific_account" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "open_nisa" boolean;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_account" text DEFAULT 'specific' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "margin_type" text DEFAULT 'cash' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "tax_account" text DEFAULT 'specific' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "margin_type" text DEFAULT 'cash' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "book_value" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "repay_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_imported_by_operators_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_statement_id_bank_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."bank_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokerage_accounts" ADD CONSTRAINT "brokerage_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokerage_accounts" ADD CONSTRAINT "brokerage_accounts_identity_id_identity_verifications_id_fk" FOREIGN KEY ("identity_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realizations" ADD CONSTRAINT "realizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realizations" ADD CONSTRAINT "realizations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_statements_sha256_uq" ON "bank_statements" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_transfers_bank_ref_uq" ON "bank_transfers" USING btree ("bank_ref");--> statement-breakpoint
CREATE INDEX "bank_transfers_status_idx" ON "bank_transfers" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "realizations_user_year_idx" ON "realizations" USING btree ("user_id","year","tax_account");--> statement-breakpoint
-- Issue 23's data: what rows written before it mean in its terms.
-- A holding's cost basis: what its shares cost at their average price (the buy fees were not kept per holding).
UPDATE "positions" SET "book_value" = "avg_price" * "quantity" WHERE "status" = 'holding';--> statement-breakpoint
-- Margin positions opened before the choice existed were opened without a repayment deadline: 一般信用.
UPDATE "positions" SET "margin_type" = 'general' WHERE "leverage" > 1 OR "direction" = 'short';--> statement-breakpoint
UPDATE "orders" SET "margin_type" = 'general' WHERE "leverage" > 1 OR "direction" = 'short';--> statement-breakpoint
-- Customers verified before account opening asked for more hold a 特定口座 (源泉徴収あり), without NISA.
INSERT INTO "brokerage_accounts" ("user_id", "identity_id", "specific_account", "default_tax_account", "opened_at")
SELECT u."id", (SELECT max(i."id") FROM "identity_verifications" i WHERE i."user_id" = u."id" AND i."status" = 'passed'),
  'withholding', 'specific', now()
FROM "users" u WHERE u."real_name_status" = 'verified';--> statement-breakpoint
-- The tax withheld in 特定口座 (源泉徴収あり) until it is paid to the tax office: income tax with the
-- reconstruction surtax (15.315%), and the local inhabitant's tax (5%).
INSERT INTO "ledger_accounts" ("user_id", "kind")
SELECT NULL, h."kind"
FROM (VALUES ('tax_withholding_national'), ('tax_withholding_local')) AS h("kind")
WHERE NOT EXISTS (
  SELECT 1 FROM "ledger_accounts" a WHERE a."user_id" IS NULL AND a."kind" = h."kind"
);--> statement-breakpoint
CREATE TRIGGER "realizations_no_update_delete" BEFORE UPDATE OR DELETE ON "realizations"
  FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"();--> statement-breakpoint
CREATE TRIGGER "realizations_no_truncate" BEFORE TRUNCATE ON "realizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"();

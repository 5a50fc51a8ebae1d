CREATE TABLE "loan_accruals" (
	"loan_id" integer NOT NULL,
	"day" text NOT NULL,
	"interest" bigint NOT NULL,
	"late_charge" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_accruals_loan_id_day_pk" PRIMARY KEY("loan_id","day"),
	CONSTRAINT "loan_accruals_amounts_ck" CHECK ("loan_accruals"."interest" >= 0 and "loan_accruals"."late_charge" >= 0)
);
--> statement-breakpoint
CREATE TABLE "loan_limits" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"limit_yen" bigint NOT NULL,
	"set_by" integer NOT NULL,
	"set_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"rate_bp" integer NOT NULL,
	"late_rate_bp" integer NOT NULL,
	"term_days" integer NOT NULL,
	"min_yen" bigint NOT NULL,
	"max_yen" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_products_rate_ck" CHECK ("loan_products"."rate_bp" between 0 and 2000 and "loan_products"."late_rate_bp" between 0 and 2000),
	CONSTRAINT "loan_products_amounts_ck" CHECK ("loan_products"."min_yen" >= 1 and "loan_products"."min_yen" <= "loan_products"."max_yen" and "loan_products"."max_yen" <= 100000000)
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested" bigint NOT NULL,
	"principal" bigint,
	"full_name" text NOT NULL,
	"id_number" text NOT NULL,
	"address" text NOT NULL,
	"contact_phone" text NOT NULL,
	"email" text NOT NULL,
	"annual_income_yen" bigint NOT NULL,
	"other_borrowing_yen" bigint NOT NULL,
	"agreed_at" timestamp with time zone NOT NULL,
	"rate_bp" integer,
	"late_rate_bp" integer,
	"late_grace_days" integer,
	"disbursed_on" text,
	"due_on" text,
	"free_until" text,
	"needs_second_approval" boolean DEFAULT false NOT NULL,
	"first_approved_by" integer,
	"first_approved_at" timestamp with time zone,
	"approved_limit_yen" bigint,
	"reject_reason_code" text,
	"reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"disburse_entry_id" integer,
	"disbursed_at" timestamp with time zone,
	"repay_entry_id" integer,
	"repaid_at" timestamp with time zone,
	"repaid_amount" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loans_principal_ck" CHECK ("loans"."principal" is null or ("loans"."principal" > 0 and "loans"."principal" <= 10000000000)),
	CONSTRAINT "loans_rates_ck" CHECK ("loans"."rate_bp" is null or ("loans"."rate_bp" <= 2000 and "loans"."late_rate_bp" <= 2000))
);
--> statement-breakpoint
ALTER TABLE "loan_accruals" ADD CONSTRAINT "loan_accruals_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_limits" ADD CONSTRAINT "loan_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_product_id_loan_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."loan_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_disburse_entry_id_journal_entries_id_fk" FOREIGN KEY ("disburse_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_repay_entry_id_journal_entries_id_fk" FOREIGN KEY ("repay_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loans_user_idx" ON "loans" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loans_status_idx" ON "loans" USING btree ("status","id");--> statement-breakpoint
-- Issue 18: the loan book's house accounts (HOUSE_ACCOUNT_KINDS), opened once like migration 0006's.
INSERT INTO "ledger_accounts" ("user_id", "kind")
SELECT NULL, h."kind"
FROM (VALUES ('loan_book'), ('loan_interest'), ('loan_late_charges')) AS h("kind")
WHERE NOT EXISTS (
  SELECT 1 FROM "ledger_accounts" a WHERE a."user_id" IS NULL AND a."kind" = h."kind"
);--> statement-breakpoint
-- A day's accrued interest is a fact like a posting: corrected by a new row, never edited.
CREATE TRIGGER "loan_accruals_no_update_delete" BEFORE UPDATE OR DELETE ON "loan_accruals"
  FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"();--> statement-breakpoint
CREATE TRIGGER "loan_accruals_no_truncate" BEFORE TRUNCATE ON "loan_accruals"
  FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"();

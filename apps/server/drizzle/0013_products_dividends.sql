CREATE TABLE "dividend_announcements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dividend_announcements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"per_share" bigint NOT NULL,
	"record_date" text NOT NULL,
	"cum_date" text NOT NULL,
	"ex_date" text NOT NULL,
	"payment_date" text NOT NULL,
	"source" text,
	"published_by" integer,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dividend_payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dividend_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"announcement_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"tax_account" text NOT NULL,
	"quantity" integer NOT NULL,
	"gross" bigint NOT NULL,
	"tax_national" bigint NOT NULL,
	"tax_local" bigint NOT NULL,
	"net" bigint NOT NULL,
	"entry_id" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_navs" (
	"product_id" integer NOT NULL,
	"date" text NOT NULL,
	"nav" bigint NOT NULL,
	"closes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_navs_product_id_date_pk" PRIMARY KEY("product_id","date")
);
--> statement-breakpoint
CREATE TABLE "product_records" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"status" text NOT NULL,
	"amount" bigint NOT NULL,
	"buy_at" timestamp with time zone NOT NULL,
	"buy_nav_date" text NOT NULL,
	"buy_nav" bigint,
	"units" bigint,
	"cost" bigint,
	"sell_at" timestamp with time zone,
	"sell_nav_date" text,
	"sell_nav" bigint,
	"proceeds" bigint,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_risk_acks" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"version" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "product_risk_acks_user_id_product_id_version_pk" PRIMARY KEY("user_id","product_id","version")
);
--> statement-breakpoint
CREATE TABLE "product_versions" (
	"product_id" integer NOT NULL,
	"version" integer NOT NULL,
	"constituents" jsonb NOT NULL,
	"fee_ppm" integer NOT NULL,
	"effective_date" text NOT NULL,
	"reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_versions_product_id_version_pk" PRIMARY KEY("product_id","version")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"issuer" text NOT NULL,
	"name" text NOT NULL,
	"strategy" text NOT NULL,
	"risk_disclosure" text NOT NULL,
	"fund_cap" bigint NOT NULL,
	"deadline" text NOT NULL,
	"min_investment" bigint NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"published_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dividend_announcements" ADD CONSTRAINT "dividend_announcements_published_by_operators_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_payments" ADD CONSTRAINT "dividend_payments_announcement_id_dividend_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."dividend_announcements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_payments" ADD CONSTRAINT "dividend_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_navs" ADD CONSTRAINT "product_navs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_records" ADD CONSTRAINT "product_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_records" ADD CONSTRAINT "product_records_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_risk_acks" ADD CONSTRAINT "product_risk_acks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_risk_acks" ADD CONSTRAINT "product_risk_acks_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_versions" ADD CONSTRAINT "product_versions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_versions" ADD CONSTRAINT "product_versions_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_published_by_operators_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dividend_announcements_code_record_uq" ON "dividend_announcements" USING btree ("code","record_date");--> statement-breakpoint
CREATE UNIQUE INDEX "dividend_payments_uq" ON "dividend_payments" USING btree ("announcement_id","user_id","kind","tax_account");--> statement-breakpoint
CREATE INDEX "dividend_payments_user_idx" ON "dividend_payments" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "product_records_user_idx" ON "product_records" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "product_records_product_idx" ON "product_records" USING btree ("product_id","status");--> statement-breakpoint
-- The follow-up products' custody (what holders paid in, what redemptions pay out) and the clearing account
-- of dividends and dividend adjustments (ADR 0027).
INSERT INTO "ledger_accounts" ("user_id", "kind")
SELECT NULL, h."kind"
FROM (VALUES ('fund_custody'), ('dividend_clearing')) AS h("kind")
WHERE NOT EXISTS (
  SELECT 1 FROM "ledger_accounts" a WHERE a."user_id" IS NULL AND a."kind" = h."kind"
);--> statement-breakpoint
ALTER TABLE "product_versions" ADD CONSTRAINT "product_versions_fee_ck" CHECK ("fee_ppm" >= 0 AND "fee_ppm" <= 50000);--> statement-breakpoint
ALTER TABLE "product_records" ADD CONSTRAINT "product_records_amount_ck" CHECK ("amount" > 0);--> statement-breakpoint
ALTER TABLE "dividend_announcements" ADD CONSTRAINT "dividend_announcements_per_share_ck" CHECK ("per_share" > 0);--> statement-breakpoint
CREATE TRIGGER "dividend_payments_no_update_delete" BEFORE UPDATE OR DELETE ON "dividend_payments"
  FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"();--> statement-breakpoint
CREATE TRIGGER "product_versions_no_update_delete" BEFORE UPDATE OR DELETE ON "product_versions"
  FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"();

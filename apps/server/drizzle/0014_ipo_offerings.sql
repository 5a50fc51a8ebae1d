CREATE TABLE "ipo_points" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offering_applications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offering_applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"offering_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"pseudonym" text NOT NULL,
	"units" integer NOT NULL,
	"bid_price" bigint,
	"points" integer DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"won_units" integer DEFAULT 0 NOT NULL,
	"reserved" bigint NOT NULL,
	"amount_paid" bigint DEFAULT 0 NOT NULL,
	"position_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offerings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offerings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"market" text NOT NULL,
	"price_low" bigint,
	"price_high" bigint,
	"offer_price" bigint,
	"base_close" bigint,
	"discount_bps" integer,
	"unit_shares" integer NOT NULL,
	"offering_units" integer NOT NULL,
	"cap_units" integer NOT NULL,
	"window_open" timestamp with time zone NOT NULL,
	"window_close" timestamp with time zone NOT NULL,
	"draw_at" timestamp with time zone NOT NULL,
	"purchase_deadline" timestamp with time zone,
	"listing_at" timestamp with time zone NOT NULL,
	"policy" jsonb NOT NULL,
	"prospectus_url" text,
	"seed" text NOT NULL,
	"seed_hash" text NOT NULL,
	"list_hash" text,
	"allocations" jsonb,
	"draw_order" jsonb,
	"drawn_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ipo_points" ADD CONSTRAINT "ipo_points_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_applications" ADD CONSTRAINT "offering_applications_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_applications" ADD CONSTRAINT "offering_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offering_applications_live_uq" ON "offering_applications" USING btree ("offering_id","user_id") WHERE state <> 'withdrawn';--> statement-breakpoint
CREATE INDEX "offering_applications_user_idx" ON "offering_applications" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "offerings_window_idx" ON "offerings" USING btree ("window_close");--> statement-breakpoint
-- An offering's draw record is written once: the seed and its hash never change, the list hash, the
-- allocation and the drawn order are set once (at the close and at the draw) and never changed, and an
-- offering is never deleted. The published terms freeze when the window closes (only the cancellation may
-- still be recorded).
CREATE FUNCTION "offerings_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'offerings are never deleted';
  END IF;
  IF NEW.seed IS DISTINCT FROM OLD.seed OR NEW.seed_hash IS DISTINCT FROM OLD.seed_hash
     OR (OLD.list_hash IS NOT NULL AND NEW.list_hash IS DISTINCT FROM OLD.list_hash)
     OR (OLD.allocations IS NOT NULL AND NEW.allocations::text IS DISTINCT FROM OLD.allocations::text)
     OR (OLD.draw_order IS NOT NULL AND NEW.draw_order::text IS DISTINCT FROM OLD.draw_order::text)
     OR (OLD.drawn_at IS NOT NULL AND NEW.drawn_at IS DISTINCT FROM OLD.drawn_at) THEN
    RAISE EXCEPTION 'an offering''s draw record is written once';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "offerings_guard" BEFORE UPDATE OR DELETE ON "offerings"
  FOR EACH ROW EXECUTE FUNCTION "offerings_guard"();

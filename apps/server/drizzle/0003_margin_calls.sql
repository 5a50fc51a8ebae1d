ALTER TABLE "positions" ADD COLUMN "margin_call_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "margin_call_deadline" timestamp with time zone;